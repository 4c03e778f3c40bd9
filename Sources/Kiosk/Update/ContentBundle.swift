import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging

/// A content bundle from a server (`[content] url`, docs/updates.md): a USB stick's
/// `kiosk-carousel/` folder packed as a tar archive inside a CMS signed-data envelope (DER,
/// `openssl cms -sign -nodetach -binary -outform DER`). Its signature is checked against the
/// update keyring with `openssl cms -verify` before anything is unpacked; the archive is unpacked
/// by `tar` into a private folder (no owners, no absolute names, no `..`), and its
/// `kiosk-carousel/` folder is then taken as a stick's is (`ContentImporter`: the same checks and
/// generations, the same status and cards).
public struct ContentBundle {
    public var openssl = "openssl"
    public var tar = "tar"
    /// The certificates a content bundle's signer must chain to (RAUC's keyring).
    public var keyring = "/etc/rauc/keyring.pem"
    public init() {}

    /// Why a content bundle was not taken.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// Verifies `bundle` and unpacks its archive into `folder` (made, empty); returns the tar's path.
    public func verifyAndUnpack(_ bundle: String, into folder: String) throws(Refusal) {
        try? FileManager.default.removeItem(atPath: folder)
        guard mkdir(folder, 0o700) == 0 else { throw Refusal(description: "\(folder): \(String(cString: strerror(errno)))") }
        let archive = folder + ".tar"
        defer { unlink(archive) }
        let verified: ChildProcess.Result
        do {
            verified = try ChildProcess.run([openssl, "cms", "-verify", "-binary", "-inform", "DER", "-in", bundle,
                                             "-CAfile", keyring, "-purpose", "any", "-out", archive])
        } catch {
            throw Refusal(description: "openssl cannot be run: \(error)")
        }
        guard verified.status == 0 else { throw Refusal(description: Self.words(forVerify: verified.said)) }
        let unpacked: ChildProcess.Result
        do {
            unpacked = try ChildProcess.run([tar, "--extract", "--file", archive, "--directory", folder, "--no-same-owner",
                                             "--no-same-permissions", "--no-overwrite-dir", "--delay-directory-restore"])
        } catch {
            throw Refusal(description: "tar cannot be run: \(error)")
        }
        guard unpacked.status == 0 else { throw Refusal(description: "its archive cannot be unpacked: \(unpacked.said.prefix(300))") }
    }

    /// openssl's verify errors in words.
    static func words(forVerify said: String) -> String {
        let lower = said.lowercased()
        if lower.contains("unable to get local issuer") || lower.contains("self-signed") || lower.contains("self signed")
            || lower.contains("certificate verify error") {
            return "signed by a key this kiosk does not trust"
        }
        if lower.contains("content verify error") || lower.contains("digest failure") || lower.contains("signature failure") {
            return "changed after it was signed (damaged or tampered with)"
        }
        if lower.contains("not enough data") || lower.contains("wrong tag") || lower.contains("asn1") || lower.contains("error reading") {
            return "not a signed content bundle (unsigned, or not a bundle)"
        }
        return "its signature cannot be checked: \(said.prefix(300))"
    }

    /// Fetches `url` (unless unchanged since last time), verifies, unpacks and imports it; the
    /// import's own status (`[usb] content/status.json`) says how it ended. Returns that status,
    /// or nil when nothing was done (unchanged).
    @discardableResult
    public func fetchAndImport(_ url: String, machine: KioskConfiguration, paths: UpdatePaths, downloader: Downloader,
                               logger: Logger, wallClock: @escaping () -> Double = WallClockTime.now) -> ImportStatus? {
        let statusPath = ImportStatus.path(in: machine.usb.content)
        func failed(_ message: String) -> ImportStatus {
            let s = ImportStatus(state: .failed, time: wallClock(), device: url, message: "The content from the server was not used.",
                                 problems: [message])
            try? FileManager.default.createDirectory(atPath: machine.usb.content, withIntermediateDirectories: true)
            try? s.write(to: statusPath)
            logger.error("\(url): \(message)")
            return s
        }
        let file: String, remote: Downloader.Remote
        do {
            remote = try downloader.remote(url)
            if let seen = SeenDownloads.load(paths.seen)[url], seen.remote == remote, !remote.isAnonymous {
                logger.info("\(url): unchanged since it was \(seen.outcome); not fetched again")
                return nil
            }
            file = try downloader.fetch(url, remote: remote, into: paths.downloads, name: DownloadURL.fileName(url))
        } catch {
            return failed("The content bundle could not be downloaded: \(error).")
        }
        defer { unlink(file) }
        let folder = paths.folder + "/content-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let status: ImportStatus
        do {
            try verifyAndUnpack(file, into: folder)
            status = ContentImporter(machine: machine, logger: logger, wallClock: wallClock).importStick(root: folder, device: url)
                ?? failed("The content bundle has no \(ImportedContent.stickFolder)/ folder.")
        } catch {
            status = failed("The content bundle was refused: \(error).")
        }
        var seen = SeenDownloads.load(paths.seen)
        seen[url] = SeenDownloads.Entry(remote: remote, outcome: status.state == .done ? "installed" : "refused")
        SeenDownloads.save(seen, to: paths.seen, logger: logger)
        return status
    }
}
