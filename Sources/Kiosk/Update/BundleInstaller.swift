import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging

/// Installs a system update bundle (docs/updates.md): fetches it when it is a URL, asks RAUC
/// what it is (its signature checked), refuses it in words when it is for another architecture
/// or not newer than the running version, then has RAUC install it into the other slot. Every
/// step is written to `status.json` (`UpdateStatus`), which the kiosk shows.
public final class BundleInstaller {
    public let paths: UpdatePaths
    public let rauc: RaucClient
    public let downloader: Downloader
    public let identity: SystemIdentity
    let logger: Logger
    let wallClock: () -> Double

    public init(paths: UpdatePaths = UpdatePaths(), rauc: RaucClient = RaucClient(), downloader: Downloader = Downloader(),
                identity: SystemIdentity = SystemIdentity(), logger: Logger, wallClock: @escaping () -> Double = WallClockTime.now) {
        self.paths = paths; self.rauc = rauc; self.downloader = downloader; self.identity = identity
        self.logger = logger; self.wallClock = wallClock
    }

    /// How an install ended.
    public enum Outcome: Equatable, Sendable {
        /// Installed: the version now in the other slot.
        case installed(version: String)
        /// Not installed, and why.
        case refused(BundleRefusal)
        /// Not fetched, and why (a later check tries again).
        case notFetched(Downloader.Failure)
        /// The server's file is the one already installed or refused (`seen.json`).
        case unchanged
        /// Not now: this boot is a new slot's trial, not yet marked good. Installing would
        /// overwrite the only slot known to work (the one a failed trial rolls back to); a later
        /// check (or the stick plugged in again) installs it.
        case deferred(running: String)
    }

    /// `update install FILE|URL`, and a USB stick's bundle (`source` names the stick).
    @discardableResult
    public func install(_ fileOrURL: String, source: String? = nil, skipUnchanged: Bool = false) -> Outcome {
        let shown = source ?? fileOrURL
        try? FileManager.default.createDirectory(atPath: paths.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let lock = open(paths.folder + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        let running = identity.version
        if identity.isOnTrial {
            // A stick's person sees why on the screen; a check by URL just tries again later.
            if source != nil {
                report(.failed, shown, "Not installed yet: version \(running) is still on trial (it has not been marked good). "
                       + "Plug the stick in again in a few minutes.", running: running)
            }
            logger.notice("\(shown): not installed now: this boot (version \(running)) is on trial, not yet marked good")
            return .deferred(running: running)
        }
        var file = fileOrURL
        var remote: Downloader.Remote?
        if DownloadURL.problem(fileOrURL) == nil {
            let before = (try? UpdateStatus.read(from: paths.status)) ?? nil
            report(.checking, shown, "Looking for an update…", running: running)
            do {
                let r = try downloader.remote(fileOrURL)
                remote = r
                if skipUnchanged, let seen = SeenDownloads.load(paths.seen)[fileOrURL], seen.remote == r, !r.isAnonymous {
                    logger.info("\(fileOrURL): unchanged since it was \(seen.outcome) (\(r.etag ?? r.lastModified ?? "\(r.size ?? 0) bytes")); not fetched again")
                    // What the status said before stays (an install waiting for its reboot).
                    if let before { try? before.write(to: paths.status) }
                    return .unchanged
                }
                file = try downloader.fetch(fileOrURL, remote: r, into: paths.downloads, name: DownloadURL.fileName(fileOrURL)) { bytes in
                    self.report(.downloading, shown, "Downloading the update…", running: running, bytes: bytes, total: r.size)
                }
            } catch {
                report(.failed, shown, "The update could not be downloaded: \(error).", running: running)
                logger.error("\(fileOrURL): \(error)")
                return .notFetched(error)
            }
        }
        defer { if remote != nil { unlink(file) } }   // a download is not kept once RAUC had it (installed, or refused)
        let outcome = installFile(file, shown: shown, running: running)
        if let remote {
            var seen = SeenDownloads.load(paths.seen)
            seen[fileOrURL] = SeenDownloads.Entry(remote: remote, outcome: { if case .installed = outcome { return "installed" }; return "refused" }())
            SeenDownloads.save(seen, to: paths.seen, logger: logger)
        }
        return outcome
    }

    private func installFile(_ file: String, shown: String, running: String) -> Outcome {
        report(.installing, shown, "Checking the update…", running: running)
        let info: BundleInfo
        do {
            info = try rauc.info(file)
        } catch {
            return refused(error, shown: shown, running: running, version: nil)
        }
        let kiosk = identity.compatible
        guard info.compatible == kiosk else {
            return refused(.wrongArchitecture(bundle: SystemIdentity.architecture(ofCompatible: info.compatible),
                                              kiosk: SystemIdentity.architecture(ofCompatible: kiosk)),
                           shown: shown, running: running, version: info.version)
        }
        guard VersionOrder.compare(info.version, running) > 0 else {
            return refused(.older(bundle: info.version, running: running), shown: shown, running: running, version: info.version)
        }
        report(.installing, shown, "Installing version \(info.version)…", version: info.version, running: running)
        do {
            try rauc.install(file, info: info, running: running)
        } catch {
            return refused(error, shown: shown, running: running, version: info.version)
        }
        report(.installed, shown, "Version \(info.version) is installed; the kiosk restarts into it when nobody is using it.",
               version: info.version, running: running)
        do { try StatusFile.write(PendingReboot(version: info.version, boot: identity.bootID), to: paths.pending) } catch {
            logger.warning("cannot write \(paths.pending): \(error)")
        }
        logger.notice("\(shown): version \(info.version) installed into the other slot")
        return .installed(version: info.version)
    }

    private func refused(_ refusal: BundleRefusal, shown: String, running: String, version: String?) -> Outcome {
        report(.failed, shown, "The update was refused: \(refusal).", version: version, running: running)
        logger.error("\(shown): refused: \(refusal)")
        return .refused(refusal)
    }

    /// Writes the status; an unwritable status is logged, never fatal.
    func report(_ state: UpdateStatus.State, _ source: String, _ message: String, version: String? = nil, running: String? = nil,
                bytes: Int64? = nil, total: Int64? = nil) {
        do {
            try UpdateStatus(state: state, time: wallClock(), source: source, message: message, version: version, running: running,
                             bytes: bytes, total: total).write(to: paths.status)
        } catch {
            logger.warning("cannot write the update status: \(error)")
        }
    }
}

/// `pending.json`: the version written into the other slot, which the next boot runs.
///
/// Any boot after the install takes it: the boot loader starts the new slot's trial whether the
/// reboot was ours or a power cut, and a slot that fails its trial is rolled back from. So the
/// file asks for a reboot only in the boot that wrote it (`boot`, the kernel's boot ID): a kiosk
/// back on its old slot after a rollback is never rebooted again for the version that failed.
public struct PendingReboot: Codable, Equatable, Sendable {
    public var version: String
    /// The boot ID of the boot that installed it (nil from an updater before this field: such a
    /// file asks for nothing).
    public var boot: String?

    public init(version: String, boot: String?) { self.version = version; self.boot = boot }

    /// Whether this boot should reboot for it: written in this very boot, for a version this
    /// boot does not run.
    public func isDue(in identity: SystemIdentity) -> Bool {
        boot != nil && boot == identity.bootID && version != identity.version
    }

    /// The pending version; nil when none (or the file is broken: said in the log by the caller).
    public static func read(from path: String) throws -> PendingReboot? { try StatusFile.read(PendingReboot.self, from: path) }
}

/// `seen.json`: for each URL, what the server said of the file last fetched and how it ended, so
/// that the same file is not downloaded again at every check.
enum SeenDownloads {
    struct Entry: Codable, Equatable {
        var remote: Downloader.Remote
        /// `installed` or `refused`.
        var outcome: String
    }

    static func load(_ path: String) -> [String: Entry] {
        ((try? StatusFile.read([String: Entry].self, from: path)) ?? nil) ?? [:]
    }

    static func save(_ seen: [String: Entry], to path: String, logger: Logger) {
        do { try StatusFile.write(seen, to: path) } catch { logger.warning("cannot write \(path): \(error)") }
    }
}
