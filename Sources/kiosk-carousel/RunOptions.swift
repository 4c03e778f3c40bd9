import ArgumentParser
import Cards
import Display
import Foundation
import Kiosk
import KioskConfig
import LinuxSystem
import Logging

/// What `run` was asked to do, and the kiosk run with it. swift-argument-parser reads it for
/// `RunCommand`; main.swift reads it without that parser when every argument is written plainly
/// (`init(plainArguments:)`, RunPlainArguments.swift), which is how the unit starts the kiosk.
struct RunOptions: Equatable {
    /// `--config`: nil for `$KIOSK_CAROUSEL_CONFIG`, then the system file.
    var config: String?
    var backend: DisplaySettings.Backend?
    var events: String?
    var latencyTrace: String?
    var exitAfter: Double?
    /// `--shot SECONDS=FILE.png`, as given.
    var shots: [String] = []
    var logLevel: Logger.Level = .info

    /// The checks the options must pass before anything starts (swift-argument-parser calls it
    /// through `RunCommand.validate()`; the plain reading refuses options that fail it).
    func validate() throws {
        if let exitAfter, !(exitAfter >= 0 && exitAfter.isFinite) { throw ValidationError("--exit-after must be a number of seconds, not \(exitAfter)") }
        let shots = try parsedShots()
        if let exitAfter { try TimedPath.refuseAfterEnd(shots, end: exitAfter, endOption: "--exit-after") }
        if !shots.isEmpty, let backend, backend != .headless { throw ValidationError(RunOptions.shotsNeedHeadless) }
    }

    static let shotsNeedHeadless = "--shot writes the headless screen: give --backend headless (a kiosk with a screen writes one with the control socket's screenshot command)"

    private func parsedShots() throws -> [(time: Double, path: String)] {
        try shots.map { try TimedPath.parse($0, option: "--shot", example: "1.5=out/frame.png") }
    }

    /// The kiosk, until SIGTERM or SIGINT (or `--exit-after`); throws `ExitCode` for a run that
    /// ended with a status other than 0.
    func run() throws {
        // The start, step by step: logged with the first frame on screen (docs/start-up.md).
        var startup = StartupTimeline(mainStart: mainStarted, mainAccounting: mainStartedAccounting)
        try RunCommand.prepareProcess()
        startup.threads = [StartupLibraries.record]
        // The fonts' thread waits for the first frame's word once its fonts are loaded: without
        // a screen there is nothing to draw ahead (a word given below stays).
        defer { StartupLibraries.drawAhead(nil) }
        // Read once, from `environ`: Foundation's `ProcessInfo` is not made before the first
        // frame (docs/start-up.md, stops 48 and 52).
        let environment = ProcessEnvironment.current()
        KioskLogging.bootstrap(level: logLevel, style: .automatic(environment: environment))
        let logger = Logger(label: "kiosk-carousel")
        let path = ConfigLoader.resolvePath(explicit: config, environment: environment)
        // Added to "no such file": how to give another file (none when `--config` named it).
        let missingFileHint = ConfigLoader.missingFileHint(explicit: config, environment: environment)
        // The file is read twice. First without its fonts looked up and its clips opened: the
        // kiosk starts with it while fontconfig is still loading. Then with every check (fonts
        // looked up, clips opened), by the loop once the first frame went to the display
        // (`StartingConfigCheck`, docs/start-up.md stop 71): a file with problems then gives way
        // to the problem card. A file that does not read the first time is checked at once, so
        // its problems are listed whole; so is every file of a run with `--shot`.
        let opening: KioskConfiguration
        let checkedAtOnce: (config: KioskConfiguration, problems: [ConfigDiagnostic])?
        // The second reading of the same text takes the first one's parse.
        let parses = ParsedTextCache()
        if let unchecked = try? ConfigLoader.loadForRun(path: path, missingFileHint: missingFileHint, parses: parses) {
            (opening, checkedAtOnce) = (unchecked, nil)
        } else {
            let whole = try RunCommand.loadChecked(path: path, missingFileHint: missingFileHint, logger: logger)
            (opening, checkedAtOnce) = (whole.config, whole)
        }
        startup.mark("config")
        // A keyboard at the kiosk must not type into its console (docs/security.md).
        let consoleKeyboard = RunCommand.turnOffConsoleKeyboard(logger: logger)
        defer { consoleKeyboard?.restore() }
        let display = try DisplayFactory.open(opening.display, backend: backend ?? opening.display.backend, logger: logger)
        startup.mark("display")
        // The first frame's title and badge, drawn by the fonts' thread while this one makes
        // the components and draws the first frame without them (docs/start-up.md, stops 55
        // and 56).
        let ahead = FirstFrameAhead(config: opening, screenWidth: display.fullSize.width,
                                    screenHeight: display.fullSize.height, renderScale: display.renderScale)
        StartupLibraries.drawAhead(ahead)
        let shots = try parsedShots()
        guard shots.isEmpty || display is HeadlessDisplay else {
            // The config's backend (or "auto") found a screen.
            display.close()
            throw CommandFailure(RunOptions.shotsNeedHeadless)
        }
        let cfg: KioskConfiguration, problems: [ConfigDiagnostic], startingCheck: StartingConfigCheck
        if let checkedAtOnce {
            (cfg, problems, startingCheck) = (checkedAtOnce.config, checkedAtOnce.problems, .done)
        } else if !shots.isEmpty {
            // `--shot` frames are the same in every run: a file with a missing font shows its
            // problem card from the first frame.
            (cfg, problems) = try RunCommand.loadChecked(path: path, missingFileHint: missingFileHint, logger: logger, parses: parses)
            startingCheck = .done
            startup.mark("fonts and clips")
        } else {
            KioskBehavior.logLoaded(opening, logger: logger)
            (cfg, problems, startingCheck) = (opening, [], .afterFirstFrame(parses: parses))
        }
        // The input devices open from the loop's first pass, once the first frame is drawn, on a
        // thread of their own: libinput's start (its quirks files, udev's device list) delays
        // neither that frame nor the loop (docs/start-up.md). The screen's size is read here, on
        // the loop's thread; a later one is given to the devices when they join the loop.
        let startSize = display.fullSize
        let app = try KioskApp(configPath: path, config: cfg, display: display, inputs: [],
                               openInputs: { InputFactory.open(opening, screenWidth: startSize.width,
                                                               screenHeight: startSize.height, logger: logger) },
                               log: try EventLog(path: events, retainedLines: EventLog.runningKioskLines), logger: logger, exitAfter: exitAfter,
                               notifier: SystemdNotifier(environment: environment),
                               configProblems: problems, startingCheck: startingCheck, speech: .kiosk(output: nil))
        startup.mark("components")
        app.startup = startup
        // `--shot` frames are the same in every run: the session draws its own text there. The
        // problem card shows no title.
        if shots.isEmpty, problems.isEmpty { app.textDrawnAhead = ahead.text }
        // The file that replaces the problem card (at start, or after the start's check) may
        // name other [input] devices than those opened: they are opened again for it.
        app.reopenInputs = { new in
            InputFactory.open(new, screenWidth: display.fullSize.width, screenHeight: display.fullSize.height, logger: logger)
        }
        if let latencyTrace { app.latencyTrace = try LatencyTrace(path: latencyTrace) }
        if let headless = display as? HeadlessDisplay, !shots.isEmpty {
            app.timedShots = try TimedShots(shots, display: headless, logger: logger)
        }
        let code = try app.run()
        if code != 0 { throw ExitCode(code) }
        // A shot that could not be written was logged when it was due; the exit status says so too.
        if app.timedShots?.failures.isEmpty == false { throw ExitCode(1) }
    }
}
