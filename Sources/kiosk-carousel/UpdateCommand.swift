import ArgumentParser
import Foundation
import Kiosk
import KioskConfig
import LinuxSystem
import Logging

/// `update`: system updates and content bundles (docs/updates.md). Root's: it writes the other
/// root slot through RAUC and the updater's folder.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update",
        abstract: "Install system updates and content bundles (run as root).",
        discussion: "Run as root. docs/updates.md says how bundles are made, signed and checked.",
        subcommands: [UpdateInstallCommand.self, UpdateCheckCommand.self, UpdateStatusCommand.self, UpdateRebootCommand.self])
}

/// Options every `update` subcommand shares: where the updater keeps its files, and the programs
/// it runs (tests replace them).
struct UpdateOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The updater's folder (status.json, downloads).", valueName: "dir"))
    var stateDir = UpdatePaths.defaultFolder
    @Option(help: ArgumentHelp("The rauc program.", valueName: "path"))
    var rauc = "rauc"
    @Option(help: ArgumentHelp("The curl program.", valueName: "path"))
    var curl = "curl"
    @Option(help: ArgumentHelp("The certificates a content bundle's signer must chain to.", valueName: "file"))
    var keyring = "/etc/rauc/keyring.pem"
    @Option(help: ArgumentHelp("Give up a download that moves less than 1 KiB a second for this many seconds.", valueName: "seconds"))
    var lowSpeedSeconds = 60
    @Option(help: ArgumentHelp("Trust only these certificates for the server's TLS (as [update] ca; `check` takes the config's).",
                               valueName: "file"))
    var ca: String?

    var paths: UpdatePaths { UpdatePaths(folder: stateDir) }

    /// The downloader: `lowSpeedSeconds`, at most `maxBytes`, TLS pinned to `pinnedCA` when given.
    func downloader(maxBytes: Int64? = nil, pinnedCA: String?) -> Downloader {
        var limits = Downloader.Limits()
        limits.lowSpeedSeconds = lowSpeedSeconds
        if let maxBytes { limits.maxBytes = maxBytes }
        return Downloader(curl: curl, limits: limits, pinnedCA: pinnedCA)
    }

    /// `pinnedCA`: `[update] ca` of the config (`check`); `--ca` wins.
    func installer(logger: Logger, pinnedCA: String? = nil) -> BundleInstaller {
        BundleInstaller(paths: paths, rauc: RaucClient(program: rauc), downloader: downloader(pinnedCA: ca ?? pinnedCA), logger: logger)
    }
}

struct UpdateInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "install",
        abstract: "Install a RAUC bundle (a file or a URL) into the other slot.",
        usage: "kiosk-carousel update install BUNDLE [options]",
        discussion: "Exits 0 when it was installed (the kiosk restarts into it at a quiet moment), 1 when it was refused or not fetched: the reason is printed in words.")
    @Argument(help: "A .raucb file, or an https:// or http:// URL.")
    var bundle: String
    @OptionGroup var options: UpdateOptions

    func run() throws {
        KioskLogging.bootstrap(level: .info)
        let outcome = options.installer(logger: Logger(label: "kiosk-carousel.update")).install(bundle)
        switch outcome {
        case .installed(let version): print("installed \(version); the kiosk restarts into it when nobody is using it")
        case .refused(let why):
            FileHandle.standardError.write(Data("\(bundle): refused: \(why)\n".utf8))
            throw ExitCode(1)
        case .notFetched(let why):
            FileHandle.standardError.write(Data("\(bundle): not downloaded: \(why)\n".utf8))
            throw ExitCode(1)
        case .unchanged: print("unchanged")
        case .deferred(let running):
            FileHandle.standardError.write(Data("\(bundle): not installed now: version \(running) is still on trial (not yet marked good); try again once it is\n".utf8))
            throw ExitCode(75)   // EX_TEMPFAIL
        }
    }
}

struct UpdateCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check",
        abstract: "Fetch and install [update] url and [content] url when due.",
        usage: "kiosk-carousel update check [options]",
        discussion: "Run by kiosk-carousel-update.timer every few minutes; does nothing when not due, outside the window, or when the server's files are those already installed or refused.")
    @OptionGroup var config: ConfigOption
    @OptionGroup var options: UpdateOptions
    @Flag(help: "Check now, whatever check_every and window say.")
    var now = false

    func run() throws {
        KioskLogging.bootstrap(level: .info)
        let logger = Logger(label: "kiosk-carousel.update")
        // The machine's own tables, also when the file has a problem elsewhere.
        let (machine, problems) = ImportedContent.machineConfiguration(path: config.path)
        if !problems.isEmpty { logger.warning("\(config.path) has \(problems.count) problem(s); using what can be read of it") }
        let check = UpdateCheck(paths: options.paths)
        let time = WallClockTime.now()
        let decision = now ? .checked : check.decide(machine, now: time, minuteOfDay: UpdateCheck.minuteOfDay(time))
        switch decision {
        case .notConfigured:
            logger.info("no [update] url and no [content] url in \(config.path): nothing to check")
            return
        case .outsideWindow(let w):
            logger.info("outside [update] window \(w.description): not checking now")
            return
        case .notDue(let until):
            logger.info("the next check is due in \(Int(until - time)) s ([update] check_every)")
            return
        case .checked:
            break
        }
        var failed = false
        // A system update deferred because this boot is still on trial is looked for again at
        // the timer's next run, not after check_every.
        var deferred = false
        if let url = machine.update.url {
            switch options.installer(logger: logger, pinnedCA: machine.update.ca).install(url, skipUnchanged: true) {
            case .refused, .notFetched: failed = true
            case .deferred: deferred = true
            case .installed, .unchanged: break
            }
        }
        if !deferred { try check.recordCheck(now: time) }
        if let url = machine.contentSource.url {
            var bundle = ContentBundle()
            bundle.keyring = options.keyring
            let downloader = options.downloader(maxBytes: Int64(machine.usb.maxMB) << 20, pinnedCA: options.ca ?? machine.update.ca)
            let status = bundle.fetchAndImport(url, machine: machine, paths: options.paths, downloader: downloader, logger: logger)
            if status?.state == .failed { failed = true }
        }
        if failed { throw ExitCode(1) }
    }
}

struct UpdateStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status",
        abstract: "Print the running version and slot, the last update and boot.",
        usage: "kiosk-carousel update status [options]")
    @OptionGroup var options: UpdateOptions

    func run() throws {
        let identity = SystemIdentity()
        print("running: \(identity.version) (slot \(identity.slot), \(identity.compatible))")
        do {
            if let s = try UpdateStatus.read(from: options.paths.status) {
                let when = Date(timeIntervalSince1970: s.time)
                print("last update: \(s.state.rawValue) at \(when) from \(s.source): \(s.message)")
            } else {
                print("last update: none")
            }
            if let b = try BootReport.read(from: options.paths.boot) {
                print("last boot: slot \(b.slot), version \(b.version)"
                      + (b.rolledBack ? ", rolled back from slot \(b.rolledBackFrom ?? "?") (\(b.failedVersion ?? "?") did not start)" : ""))
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

struct UpdateRebootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reboot-when-quiet",
        abstract: "Reboot into an installed update when nobody is using the kiosk.",
        usage: "kiosk-carousel update reboot-when-quiet [options]",
        discussion: "Run by kiosk-carousel-update.service after each check, and with --wait by kiosk-carousel-update-reboot.service as soon as an update is installed. Does nothing unless an update was installed in this boot (pending.json) for a version this boot does not run; a pending.json from an earlier boot is removed (that boot already started the new slot, or rolled back from it). Quiet: the kiosk is not running, is blanked, is outside its schedule, or nobody touched it for --idle seconds (asked through [control] socket); never while a program it started has the screen.")
    @OptionGroup var config: ConfigOption
    @OptionGroup var options: UpdateOptions
    @Option(help: ArgumentHelp("Seconds without a touch that make the kiosk idle.", valueName: "seconds"))
    var idle = 300.0
    @Option(help: ArgumentHelp("Ask again every this many seconds until the kiosk is quiet (then reboot) or nothing is pending; 0 asks once.", valueName: "seconds"))
    var wait = 0.0
    @Option(help: ArgumentHelp("The command that reboots (words split at spaces).", valueName: "command"))
    var rebootCommand = "/usr/bin/systemctl reboot"

    /// While it waits, the reason is logged at most this often.
    static let logEvery = 600.0

    func validate() throws {
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
    }

    func run() throws {
        KioskLogging.bootstrap(level: .info)
        let logger = Logger(label: "kiosk-carousel.update")
        let identity = SystemIdentity()
        let quiet = QuietMoment(idleSeconds: idle)
        var lastLogged = -Double.infinity
        while true {
            guard let pending = try PendingReboot.read(from: options.paths.pending) else { return }
            guard pending.isDue(in: identity) else {
                if pending.version != identity.version {
                    logger.notice("version \(pending.version) was installed before this boot, which runs \(identity.version): nothing to reboot for (the boot loader tried it, or it is to be tried)")
                }
                try? FileManager.default.removeItem(atPath: options.paths.pending)
                return
            }
            let machine = ImportedContent.machineConfiguration(path: config.path).config
            let verdict = quiet.ask(socket: machine.control.socket, now: WallClockTime.now())
            if verdict.quiet {
                logger.notice("rebooting into version \(pending.version): \(verdict.reason)")
                try reboot()
                return
            }
            let now = MonotonicClock.now()
            if now - lastLogged >= Self.logEvery {
                logger.info("version \(pending.version) waits for a quiet moment: \(verdict.reason)")
                lastLogged = now
            }
            // Without a socket there is nobody to ask: waiting would never end.
            guard wait > 0, machine.control.socket != nil else { return }
            Thread.sleep(forTimeInterval: wait)
        }
    }

    private func reboot() throws {
        let words = rebootCommand.split(separator: " ").map(String.init)
        let reboot = Process()
        reboot.executableURL = URL(fileURLWithPath: words.first ?? "/usr/bin/systemctl")
        reboot.arguments = Array(words.dropFirst())
        try reboot.run()
        reboot.waitUntilExit()
        if reboot.terminationStatus != 0 { throw ExitCode(reboot.terminationStatus) }
    }
}
