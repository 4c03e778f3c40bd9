import ArgumentParser
import Foundation
import Input
import Kiosk
import KioskConfig

/// `simulate`.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate",
        abstract: "Run the whole program on a virtual clock with scripted input; write PNG shots and JSON-line events.",
        usage: "kiosk-carousel simulate [options]",
        discussion: """
        Programs of exec actions are not started: each is reported as an action_skipped event. \
        Without --until the run lasts 5 virtual seconds, or up to the last --shot when that is \
        later. Without --size the screen is the config's [display] headless_size.
        """)
    @OptionGroup var config: ConfigOption
    @Option(help: "Screen size as WIDTHxHEIGHT (default: the config's [display] headless_size, 1280x720 unless set).",
            transform: PixelSize.init(parsing:))
    var size: PixelSize?
    @Option(help: "Input script (JSON lines, docs/input-script.md; - for standard input).") var input: String?
    @Option(help: "Virtual seconds to run (default: 5, or the last --shot's time when later).") var until: Double?
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
    @Option(name: .customLong("audio-out"), help: "Write what the kiosk would play (clips' sound, speech) to FILE.wav: 48 kHz stereo 16-bit, virtual 0 to --until, the same bytes every run.")
    var audioOut: String?

    /// The run's length when neither --until nor a later shot says otherwise.
    static let defaultUntil = 5.0

    /// The option checks: ArgumentParser prints `simulate`'s usage with their messages.
    func validate() throws {
        if let until, !(until >= 0 && until.isFinite) { throw ValidationError("--until must be a number of seconds, not \(until)") }
        let shots = try parsedShots()
        if let until { try TimedPath.refuseAfterEnd(shots, end: until, endOption: "--until") }
        _ = try parsedReloads()
        let zone = try parsedTimeZone()
        _ = try parsedWallClock(in: zone ?? .current)
    }

    private func parsedShots() throws -> [(time: Double, path: String)] {
        try shots.map { try TimedPath.parse($0, option: "--shot", example: "1.5=out/frame.png") }
    }

    private func parsedReloads() throws -> [(time: Double, path: String)] {
        try reloads.map { try TimedPath.parse($0, option: "--reload", example: "2=other.toml") }
    }

    private func parsedTimeZone() throws -> TimeZone? {
        guard let timeZone else { return nil }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw ValidationError("--time-zone: unknown zone '\(timeZone)' (a name from /usr/share/zoneinfo, such as Europe/London)")
        }
        return zone
    }

    private func parsedWallClock(in zone: TimeZone) throws -> Double? {
        guard let wallClock else { return nil }
        guard let t = ManualWallClock.unixTime(parsingLocal: wallClock, in: zone) else {
            throw ValidationError("--wall-clock must be a local time such as 2026-03-29T01:59:00 that exists in \(zone.identifier), not '\(wallClock)'")
        }
        return t
    }

    func run() throws {
        let cfg = try config.load()
        let size = self.size ?? PixelSize(headlessSizeOf: cfg)
        var plan = SimulationPlan(config: cfg, width: size.width, height: size.height)
        plan.shots = try parsedShots()
        plan.reloads = try parsedReloads()
        plan.until = until ?? max(Self.defaultUntil, plan.shots.map(\.time).max() ?? 0)
        if demo { plan.demoInterval = 1 }
        plan.timeZone = try parsedTimeZone()
        plan.wallClockStart = try parsedWallClock(in: plan.timeZone ?? .current)
        if let input { plan.script = try InputScript.load(path: input) }
        plan.audioOut = audioOut
        let log = try EventLog(path: events)
        let written = try Simulator(plan: plan, log: log).run()
        for p in written { print(p) }
        if let failure = log.writeFailure { throw failure }
    }
}
