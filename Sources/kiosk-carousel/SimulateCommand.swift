import ArgumentParser
import Foundation
import Input
import Kiosk
import KioskConfig

/// `simulate`.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate",
        abstract: "Run the whole program on a virtual clock with scripted input; write PNG shots and JSON-line events.")
    @OptionGroup var config: ConfigOption
    @Option(help: "Screen size as WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var size = PixelSize(1280, 720)
    @Option(help: "Input script (JSON lines, docs/input-script.md).") var input: String?
    @Option(help: "Virtual seconds to run.") var until: Double = 5
    @Option(name: .customLong("shot"), help: "SECONDS=FILE.png: write the screen at that virtual time (repeatable).")
    var shots: [String] = []
    @Option(help: "Write events as JSON lines to FILE (- for standard output).") var events: String?
    @Option(name: .customLong("reload"), help: "SECONDS=FILE.toml: reload the config from FILE at that virtual time, as SIGHUP would (repeatable).")
    var reloads: [String] = []
    @Option(name: .customLong("wall-clock"), help: "Local time at virtual 0 for [[schedule]], as 2026-03-29T01:59:00 (default: now).")
    var wallClock: String?
    @Option(name: .customLong("time-zone"), help: "Time zone of --wall-clock and the schedule, as Europe/London (default: TZ or /etc/localtime).")
    var timeZone: String?
    @Flag(help: "Turn the carousel by itself, one item per second (what `make run` shows).") var demo = false

    func run() throws {
        let cfg = try config.load()
        var plan = SimulationPlan(config: cfg, width: size.width, height: size.height)
        plan.until = until
        if demo { plan.demoInterval = 1 }
        if let timeZone {
            guard let zone = TimeZone(identifier: timeZone) else {
                throw ValidationError("--time-zone: unknown zone '\(timeZone)' (a name from /usr/share/zoneinfo, such as Europe/London)")
            }
            plan.timeZone = zone
        }
        if let wallClock {
            guard let t = ManualWallClock.unixTime(parsingLocal: wallClock, in: plan.timeZone ?? .current) else {
                throw ValidationError("--wall-clock must be a local time such as 2026-03-29T01:59:00 that exists in \((plan.timeZone ?? .current).identifier), not '\(wallClock)'")
            }
            plan.wallClockStart = t
        }
        if let input { plan.script = try InputScript.load(path: input) }
        plan.shots = try shots.map { try timedPath($0, option: "--shot", example: "1.5=out/frame.png") }
        plan.reloads = try reloads.map { try timedPath($0, option: "--reload", example: "2=other.toml") }
        let log = try EventLog(path: events)
        let written = try Simulator(plan: plan, log: log).run()
        for p in written { print(p) }
    }
}

/// Parses `SECONDS=PATH`.
func timedPath(_ spec: String, option: String, example: String) throws -> (Double, String) {
    guard let eq = spec.firstIndex(of: "="), let t = Double(spec[..<eq]), t >= 0, t.isFinite,
          spec.index(after: eq) < spec.endIndex else {
        throw ValidationError("\(option) must look like \(example), not '\(spec)'")
    }
    return (t, String(spec[spec.index(after: eq)...]))
}
