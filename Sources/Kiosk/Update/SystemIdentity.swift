import Foundation
import Glibc

/// What this kiosk is: its version, the root slot it booted from and its architecture
/// (docs/updates.md). Read from files whose paths tests replace.
public struct SystemIdentity: Sendable {
    public var osRelease = "/etc/os-release"
    public var cmdline = "/proc/cmdline"
    /// RAUC's system configuration, for its `compatible=`.
    public var raucSystemConf = "/etc/rauc/system.conf"
    /// The kernel's random ID of this boot (a new one at every boot).
    public var bootIDFile = "/proc/sys/kernel/random/boot_id"
    /// systemd-boot's `LoaderBootCountPath` EFI variable: set when the boot loader started a
    /// counted entry (`…+LEFT-DONE.conf`), the entry's path on the ESP (UTF-16, after 4 bytes of
    /// attributes).
    public var bootCountVariable = "/sys/firmware/efi/efivars/LoaderBootCountPath-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
    /// Where the ESP may be mounted (the image: `/efi`, an automount).
    public var espFolders = ["/efi", "/boot/efi", "/boot"]
    public init() {}

    /// Whether this boot is a counted one not yet marked good: a new slot's trial, which the
    /// health gate has not passed yet. systemd-bless-boot marks it good by renaming the entry the
    /// boot loader started (`LoaderBootCountPath`) to its name without the counter; while that
    /// file is still there, the trial goes on (`systemd-bless-boot status`: indeterminate).
    /// False without boot counting (no variable) or when the ESP cannot be found.
    public var isOnTrial: Bool {
        guard let data = FileManager.default.contents(atPath: bootCountVariable), data.count > 4 else { return false }
        var units = [UInt16]()
        let bytes = [UInt8](data.dropFirst(4))
        for i in stride(from: 0, to: bytes.count - 1, by: 2) { units.append(UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8) }
        while units.last == 0 { units.removeLast() }
        let entry = String(decoding: units, as: UTF16.self).replacingOccurrences(of: "\\", with: "/")
        guard entry.hasPrefix("/"), !entry.contains("/../") else { return false }
        for esp in espFolders where FileManager.default.fileExists(atPath: esp + "/loader/entries") {
            return FileManager.default.fileExists(atPath: esp + entry)
        }
        return false
    }

    /// This boot's ID (`boot_id`), nil when it cannot be read.
    public var bootID: String? {
        let text = ((try? String(contentsOfFile: bootIDFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// `IMAGE_VERSION=` of os-release (the image's), else the program's own version.
    public var version: String {
        Self.field("IMAGE_VERSION", in: (try? String(contentsOfFile: osRelease, encoding: .utf8)) ?? "") ?? KioskVersion.string
    }

    /// `rauc.slot=` of the kernel command line (`A`, `B`), or `none` off the image.
    public var slot: String {
        let text = (try? String(contentsOfFile: cmdline, encoding: .utf8)) ?? ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix("rauc.slot=") {
            let value = word.dropFirst("rauc.slot=".count)
            if !value.isEmpty { return String(value) }
        }
        return "none"
    }

    /// The `compatible=` of RAUC's system.conf (`KioskCarousel-amd64`), else the one this
    /// program's architecture implies.
    public var compatible: String {
        let text = (try? String(contentsOfFile: raucSystemConf, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "compatible", !parts[1].isEmpty { return parts[1] }
        }
        return "KioskCarousel-" + Self.architecture
    }

    /// The Debian name of this machine's architecture (`amd64`, `arm64`).
    public static var architecture: String {
        var u = utsname()
        uname(&u)
        let machine = withUnsafeBytes(of: &u.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch machine {
        case "x86_64": return "amd64"
        case "aarch64": return "arm64"
        case "armv7l": return "armhf"
        default: return machine
        }
    }

    /// The architecture part of a compatible string (`KioskCarousel-arm64` → `arm64`).
    public static func architecture(ofCompatible c: String) -> String {
        c.hasPrefix("KioskCarousel-") ? String(c.dropFirst("KioskCarousel-".count)) : c
    }

    /// `KEY=value` (or `KEY="value"`) of an os-release text.
    static func field(_ key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + "=") {
            var value = line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// Versions as Debian and the image compare them, for "older than the running one": numeric
/// runs compared as numbers, other characters in order (`0.1.10` > `0.1.9`, `1.0~rc1` < `1.0`).
public enum VersionOrder {
    /// -1, 0 or 1.
    public static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        /// `~` before everything (even the end), letters before other characters.
        func weight(_ c: Unicode.Scalar?) -> Int {
            guard let c else { return 0 }
            if c == "~" { return -1 }
            return CharacterSet.letters.contains(c) ? Int(c.value) : Int(c.value) + 0x110000
        }
        var p = 0, q = 0
        while p < x.count || q < y.count {
            while (p < x.count && !isDigit(x[p])) || (q < y.count && !isDigit(y[q])) {
                let ca = p < x.count && !isDigit(x[p]) ? x[p] : nil
                let cb = q < y.count && !isDigit(y[q]) ? y[q] : nil
                let wa = weight(ca), wb = weight(cb)
                if wa != wb { return wa < wb ? -1 : 1 }
                if ca != nil { p += 1 }
                if cb != nil { q += 1 }
            }
            var na = 0, nb = 0
            while p < x.count, isDigit(x[p]) { na = na &* 10 &+ Int(x[p].value - 48); p += 1 }
            while q < y.count, isDigit(y[q]) { nb = nb &* 10 &+ Int(y[q].value - 48); q += 1 }
            if na != nb { return na < nb ? -1 : 1 }
        }
        return 0
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }
}
