import Foundation

/// What `bench suite` prints about the machine it ran on: the board (device tree), the CPU
/// (x86-64's model name, or the Arm core's name from its part number) and the clock, so that a
/// result sent from a board says what it came from (docs/arm64.md).
enum BenchMachine {
    /// Arm's part numbers (`CPU part` in /proc/cpuinfo, implementer 0x41) of the cores
    /// single-board computers use.
    static let armCores: [String: String] = [
        "0xd03": "Cortex-A53", "0xd04": "Cortex-A35", "0xd05": "Cortex-A55", "0xd07": "Cortex-A57",
        "0xd08": "Cortex-A72", "0xd09": "Cortex-A73", "0xd0a": "Cortex-A75", "0xd0b": "Cortex-A76",
        "0xd0c": "Neoverse-N1", "0xd0d": "Cortex-A77", "0xd41": "Cortex-A78", "0xd46": "Cortex-A510",
        "0xd47": "Cortex-A710", "0xd80": "Cortex-A520", "0xd81": "Cortex-A720",
    ]

    /// Lines describing this machine (only those it can tell).
    static func describe() -> [String] {
        var lines: [String] = []
        if let model = read("/proc/device-tree/model") { lines.append("board: " + model) }
        let cpuinfo = read("/proc/cpuinfo") ?? ""
        func field(_ name: String) -> [String] {
            cpuinfo.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "aarch64"
        #else
        let arch = "other"
        #endif
        if let name = field("model name").first {
            lines.append("cpu: \(name), \(cores) cores (\(arch))")
        } else {
            let parts = Set(field("CPU part")).sorted().map { armCores[$0].map { c in "\(c)" } ?? "part \($0)" }
            lines.append("cpu: \(parts.isEmpty ? "unknown" : parts.joined(separator: " + ")), \(cores) cores (\(arch))")
        }
        let base = "/sys/devices/system/cpu/cpu0/cpufreq/"
        if let now = read(base + "scaling_cur_freq").flatMap(Int.init), let max = read(base + "cpuinfo_max_freq").flatMap(Int.init) {
            lines.append("clock: \(now / 1000) MHz now, \(max / 1000) MHz max (cpu0)"
                         + (read(base + "scaling_governor").map { ", governor \($0)" } ?? ""))
        }
        return lines
    }

    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines))
        return text.isEmpty ? nil : text
    }
}
