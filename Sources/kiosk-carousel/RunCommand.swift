import ArgumentParser
import Cards
import Display
import Foundation
import Kiosk
import KioskConfig
import Logging

/// `run`: the kiosk.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run",
        abstract: "Run the kiosk: full screen, touch, knob and keys, until SIGTERM or SIGINT.",
        usage: "kiosk-carousel run [options]")
    @OptionGroup var config: ConfigOption
    @Option(help: "The display backend (default: the config's [display] backend).")
    var backend: DisplaySettings.Backend?
    @Option(help: "Write events as JSON lines to FILE (- for standard output).") var events: String?
    @Option(help: "Write the input-to-photon latency of every frame that shows new input as JSON lines to FILE (scripts/measure-latency.sh).")
    var latencyTrace: String?
    @Option(help: "Exit by itself after this many seconds (for tests and measurements).") var exitAfter: Double?
    @Option(name: .customLong("shot"),
            help: "SECONDS=FILE.png: write the headless screen at that many seconds after start (repeatable; the headless backend only).")
    var shots: [String] = []
    @Option(help: "Least important messages logged: \(KioskLogging.levelNames).", transform: { try KioskLogging.parseLevel($0) })
    var logLevel: Logger.Level = .info

    func validate() throws {
        if let exitAfter, !(exitAfter >= 0 && exitAfter.isFinite) { throw ValidationError("--exit-after must be a number of seconds, not \(exitAfter)") }
        let shots = try parsedShots()
        if let exitAfter { try TimedPath.refuseAfterEnd(shots, end: exitAfter, endOption: "--exit-after") }
        if !shots.isEmpty, let backend, backend != .headless { throw ValidationError(Self.shotsNeedHeadless) }
    }

    static let shotsNeedHeadless = "--shot writes the headless screen: give --backend headless (a kiosk with a screen writes one with the control socket's screenshot command)"

    private func parsedShots() throws -> [(time: Double, path: String)] {
        try shots.map { try TimedPath.parse($0, option: "--shot", example: "1.5=out/frame.png") }
    }

    /// What `run` sets up for the whole process before anything else: the signal mask (before
    /// any thread starts: card workers, render bands, libdispatch; see SignalWatcher), malloc's
    /// settings, and fontconfig's load in pango's own thread. main.swift calls it before the
    /// arguments are parsed, so that fontconfig loads while they are (docs/start-up.md, stop 47);
    /// `run()` calls it again (each part is done once).
    static func prepareProcess() throws {
        try SignalWatcher.blockWatchedSignals()
        HeapTuning.returnLargeBuffersToSystem()
        FontStartup.begin()
    }

    func run() throws {
        // The start, step by step: logged with the first frame on screen (docs/start-up.md).
        var startup = StartupTimeline(mainStart: mainStarted)
        try Self.prepareProcess()
        KioskLogging.bootstrap(level: logLevel)
        let logger = Logger(label: "kiosk-carousel")
        let path = config.path
        // The file is read twice. First without its fonts looked up and its clips opened: the
        // display and the input devices open with it while fontconfig is still loading. Then
        // with every check (`loadChecked`, which waits for fontconfig): that is the
        // configuration the kiosk runs with. A file that does not read the first time is
        // checked at once, so its problems are listed whole.
        let opening: KioskConfiguration
        let checkedAtOnce: (config: KioskConfiguration, problems: [ConfigDiagnostic])?
        if let unchecked = try? ConfigLoader.loadForRun(path: path, missingFileHint: config.missingFileHint) {
            (opening, checkedAtOnce) = (unchecked, nil)
        } else {
            let whole = try Self.loadChecked(path: path, missingFileHint: config.missingFileHint, logger: logger)
            (opening, checkedAtOnce) = (whole.config, whole)
        }
        startup.mark("config")
        // A keyboard at the kiosk must not type into its console (docs/security.md).
        let consoleKeyboard = Self.turnOffConsoleKeyboard(logger: logger)
        defer { consoleKeyboard?.restore() }
        let display = try DisplayFactory.open(opening.display, backend: backend ?? opening.display.backend, logger: logger)
        startup.mark("display")
        let shots = try parsedShots()
        guard shots.isEmpty || display is HeadlessDisplay else {
            // The config's backend (or "auto") found a screen.
            display.close()
            throw CommandFailure(Self.shotsNeedHeadless)
        }
        let inputs = InputFactory.open(opening, screenWidth: display.fullSize.width, screenHeight: display.fullSize.height,
                                       logger: logger)
        startup.mark("input devices")
        let cfg: KioskConfiguration, problems: [ConfigDiagnostic]
        if let checkedAtOnce {
            (cfg, problems) = checkedAtOnce
        } else {
            (cfg, problems) = try Self.loadChecked(path: path, missingFileHint: config.missingFileHint, logger: logger)
            startup.mark("fonts and clips")
        }
        let app = try KioskApp(configPath: path, config: cfg, display: display, inputs: inputs,
                               log: try EventLog(path: events, retainedLines: EventLog.runningKioskLines), logger: logger, exitAfter: exitAfter,
                               configProblems: problems, speech: .kiosk(output: nil))
        startup.mark("components")
        app.startup = startup
        if !problems.isEmpty {
            // [input] was not known when the devices were opened: open them again for the fixed file.
            app.reopenInputs = { new in
                InputFactory.open(new, screenWidth: display.fullSize.width, screenHeight: display.fullSize.height, logger: logger)
            }
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

    /// The file loaded with every check (fonts looked up, every clip opened, as check-config and
    /// every reload do), or, when it does not validate (or cannot be read), its problems logged and
    /// the display and services it names as far as they can be read: the screen shows them
    /// until the file is fixed (ConfigReload).
    static func loadChecked(path: String, missingFileHint: String?, logger: Logger) throws
        -> (config: KioskConfiguration, problems: [ConfigDiagnostic]) {
        do {
            let cfg = try ConfigLoader.loadForRun(path: path, media: MediaFileCheck.kiosk, missingFileHint: missingFileHint)
            KioskBehavior.logLoaded(cfg, logger: logger)
            return (cfg, [])
        } catch let e as ConfigErrors {
            for d in e.diagnostics { logger.error("\(d.description)") }
            logger.error("\(path) has \(e.diagnostics.count) problem(s): showing them on the screen until the file is fixed")
            return (KioskApp.configurationWhileInvalid(path: path), e.diagnostics)
        }
    }

    /// Turns the console's keyboard off when standard input is a virtual terminal (under
    /// systemd, `TTYPath=`): one line either way, never a stop.
    static func turnOffConsoleKeyboard(logger: Logger) -> ConsoleKeyboard? {
        do {
            guard let keyboard = try ConsoleKeyboard.turnOff() else { return nil }
            logger.info("console keyboard off (was mode \(keyboard.previousMode)): keys reach the kiosk through evdev only")
            return keyboard
        } catch {
            logger.warning("\(error): a keyboard at the kiosk can type into its console (Ctrl-C stops the kiosk)")
            return nil
        }
    }
}
