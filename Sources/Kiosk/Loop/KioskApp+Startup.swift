import Cards
import Foundation
import KioskConfig

/// Starting without a valid configuration: `run` with a config file that does not validate (or
/// is missing, or unreadable) does not exit — systemd would restart it forever over a black
/// screen. It shows the problems on the screen instead (`MessageCard.configProblems`), keeps
/// watching the file (inotify, SIGHUP, the control socket's `reload`), and starts the carousel
/// from the first valid file, without a restart. A file that is still wrong updates the card.
extension KioskApp {
    /// What `run` starts with when the file at `path` does not validate: the defaults, with what
    /// can be read of the tables that choose the screen and the services — `[display]`, the
    /// `[control]` socket, the `[metrics]` file (a fleet sees the kiosk waiting:
    /// `config_load_errors`, the problem card's frame) and `[usb]` (a stick's content can bring
    /// the carousel up, docs/usb.md).
    public static func configurationWhileInvalid(path: String) -> KioskConfiguration {
        let readable = ConfigLoader.readableTables(["display", "control", "metrics", "usb"], path: path)
        var config = KioskConfiguration()
        config.display = readable.display
        config.control = readable.control
        config.metrics = readable.metrics
        config.usb = readable.usb
        return config
    }

    /// Shows `problems` on the screen instead of the carousel.
    func showConfigProblems(_ problems: [ConfigDiagnostic]) {
        configProblems = problems
        session.message = MessageCard.configProblems(problems, file: configPath)
    }

    /// What `STATUS=` says while the screen is healthy.
    var statusLine: String {
        configProblems.isEmpty
            ? "showing \(session.config.items.count) items"
            : "waiting for a valid configuration: \(configProblems.count) problem(s) in \(configPath)"
    }

    /// The config file changed (or SIGHUP, or `reload`) while the problem card shows, and was read
    /// (`loaded`): start the carousel if the file is valid now, else show its new problems. True when it started.
    func startAfterProblems(_ loaded: Result<KioskConfiguration, any Error>, reason: String) -> Bool {
        let booted = session.config.display
        guard let new = behavior.apply(loaded, path: configPath, reason: reason, now: now, logger: logger,
                                       kept: "the problem card") else {
            let problems = behavior.lastReloadProblems.isEmpty ? configProblems : behavior.lastReloadProblems
            if problems != configProblems {
                showConfigProblems(problems)
                updateStatus()
            }
            return false
        }
        configProblems = []
        session.message = nil
        logger.notice("\(configPath) is valid now: starting the carousel with \(new.items.count) items")
        // render_scale (KioskApp+RenderScale) and the pixel shift (the session's reload) apply at
        // once; the rest of [display] at the next start.
        adopt(new)
        var others = new.display
        others.renderScale = booted.renderScale
        others.pixelShift = booted.pixelShift
        others.pixelShiftInterval = booted.pixelShiftInterval
        if others != booted {
            logger.warning("[display] settings take effect at the next start (the display was opened with what could be read of them)")
        }
        if let reopen = reopenInputs {
            inputs.forEach { $0.close() }
            inputs = reopen(new)
            try? syncInputs()
        }
        updateStatus()
        return true
    }

    /// Says `statusLine` in `STATUS=` while the screen is healthy (after READY).
    func updateStatus() {
        guard framesPresented > 0, statusLine != healthyStatus else { return }
        healthyStatus = statusLine
        if screenWatch.isHealthy { try? notifier?.status(statusLine) }
    }
}
