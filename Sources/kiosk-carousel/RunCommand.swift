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

    /// The options as `RunOptions`, which checks and runs them (main.swift makes the same from
    /// arguments written plainly, without this parser: `RunOptions(plainArguments:)`).
    var options: RunOptions {
        RunOptions(config: config.config, backend: backend, events: events, latencyTrace: latencyTrace,
                   exitAfter: exitAfter, shots: shots, logLevel: logLevel)
    }

    func validate() throws { try options.validate() }

    func run() throws { try options.run() }

    /// What `run` sets up for the whole process before anything else: the signal mask (before
    /// any thread starts: card workers, render bands, libdispatch; see SignalWatcher), malloc's
    /// settings, and the thread that opens fontconfig, cairo and pango and loads the fonts
    /// (`StartupLibraries`). main.swift calls it before the arguments are parsed, so
    /// that the libraries and fontconfig load while they and the config are read
    /// (docs/start-up.md, stop 47 and "The drawing libraries behind the start"); `run()` calls it
    /// again (each part is done once).
    static func prepareProcess() throws {
        try SignalWatcher.blockWatchedSignals()
        HeapTuning.returnLargeBuffersToSystem()
        StartupLibraries.openInBackground()
    }

    /// The file loaded with every check (fonts looked up, every clip opened, as check-config and
    /// every reload do), or, when it does not validate (or cannot be read), its problems logged and
    /// the display and services it names as far as they can be read: the screen shows them
    /// until the file is fixed (ConfigReload).
    static func loadChecked(path: String, missingFileHint: String?, logger: Logger, parses: ParsedTextCache? = nil) throws
        -> (config: KioskConfiguration, problems: [ConfigDiagnostic]) {
        do {
            let cfg = try ConfigLoader.loadForRun(path: path, media: MediaFileCheck.kiosk, missingFileHint: missingFileHint,
                                                  parses: parses)
            KioskBehavior.logLoaded(cfg, logger: logger)
            return (cfg, [])
        } catch let e as ConfigErrors {
            KioskBehavior.logStartProblems(e.diagnostics, path: path, logger: logger)
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
