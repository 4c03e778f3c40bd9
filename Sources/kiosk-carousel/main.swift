import ArgumentParser
import Foundation
import Input
import Kiosk
import KioskConfig

/// The `kiosk-carousel` command line: one type per subcommand.
struct KioskCarouselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk-carousel",
        abstract: "A full-screen carousel for Linux kiosks, drawn on the CPU and shown through DRM/KMS.",
        version: KioskVersion.string,
        subcommands: [RunCommand.self, CheckConfigCommand.self, SimulateCommand.self, LayoutCommand.self,
                      RecordCommand.self, BenchCommand.self, ConfigReferenceCommand.self])
}

/// Parses `WxH`.
func parseSize(_ s: String) throws -> (Int, Int) {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
        throw ValidationError("--size must look like 1280x720 (1 to 16384 each), not '\(s)'")
    }
    return (w, h)
}

/// `simulate`.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate",
        abstract: "Run the whole program on a virtual clock with scripted input; write PNG shots and JSON-line events.")
    @Option(help: "The config file.") var config: String?
    @Option(help: "Screen size as WIDTHxHEIGHT.") var size: String = "1280x720"
    @Option(help: "Input script (JSON lines, docs/input-script.md).") var input: String?
    @Option(help: "Virtual seconds to run.") var until: Double = 5
    @Option(name: .customLong("shot"), help: "SECONDS=FILE.png: write the screen at that virtual time (repeatable).")
    var shots: [String] = []
    @Option(help: "Write events as JSON lines to FILE (- for standard output).") var events: String?
    @Flag(help: "Turn the carousel by itself, one item per second (what `make run` shows).") var demo = false

    func run() throws {
        let (w, h) = try parseSize(size)
        let path = ConfigLoader.resolvePath(explicit: config)
        let cfg: KioskConfiguration
        do { cfg = try ConfigLoader.load(path: path) } catch let e as ConfigErrors {
            FileHandle.standardError.write(Data((e.description + "\n").utf8))
            throw ExitCode(1)
        }
        var plan = SimulationPlan(config: cfg, width: w, height: h)
        plan.until = until
        if demo { plan.demoInterval = 1 }
        if let input { plan.script = try InputScript.load(path: input) }
        plan.shots = try shots.map { spec in
            guard let eq = spec.firstIndex(of: "="), let t = Double(spec[..<eq]), t >= 0 else {
                throw ValidationError("--shot must look like 1.5=out/frame.png, not '\(spec)'")
            }
            return (t, String(spec[spec.index(after: eq)...]))
        }
        let log = try EventLog(path: events)
        let written = try Simulator(plan: plan, log: log).run()
        for p in written { print(p) }
    }
}

KioskCarouselCommand.main()
