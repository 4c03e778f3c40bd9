import Foundation
import Glibc

/// Fetches a bundle with `curl` as a child process (no libcurl in the kiosk's program):
/// resuming a partial download (`-C -` into `download/NAME.part`, renamed when whole), TLS
/// checked against the system's certificates (curl's default) or only against `pinnedCA`
/// (`[update] ca`), redirects, size and time bounded, `https`/`http` only, and an `https://` URL
/// never redirected to anything but `https://`. A server that stalls or trickles is left after
/// `lowSpeedSeconds` below `lowSpeedBytes` a second.
public struct Downloader: Sendable {
    /// The bounds of one download (docs/updates.md).
    public struct Limits: Sendable {
        public var maxBytes: Int64 = 4 << 30
        public var maxRedirects = 5
        public var connectSeconds = 20
        /// Below `lowSpeedBytes` a second for this long: given up (resumed at the next check).
        public var lowSpeedSeconds = 60
        public var lowSpeedBytes = 1024
        /// The whole download at most.
        public var maxSeconds = 4 * 3600
        public init() {}
    }

    /// What the server says of the file before it is fetched (`curl --head`).
    public struct Remote: Codable, Equatable, Sendable {
        public var etag: String?
        public var lastModified: String?
        public var size: Int64?
        /// True when it says nothing to tell one version from another.
        var isAnonymous: Bool { etag == nil && lastModified == nil && size == nil }
    }

    /// A download that did not end with the whole file, in words.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        /// A partial file was kept: the next try resumes it.
        public var resumable: Bool
    }

    public var curl: String
    public var limits: Limits
    /// A PEM file of the only certificates a server's TLS certificate may chain to (`[update]
    /// ca`: the vendor's own CA, or the server's own self-signed certificate); nil: the system's
    /// certificates. Set, it also refuses `http://`.
    public var pinnedCA: String?
    public init(curl: String = "curl", limits: Limits = Limits(), pinnedCA: String? = nil) {
        self.curl = curl; self.limits = limits; self.pinnedCA = pinnedCA
    }

    /// The options every request for `url` gets. `emptyFolder` replaces curl's certificate
    /// folder when a CA is pinned (`--cacert` alone keeps Debian's `/etc/ssl/certs` trusted).
    func common(for url: String, emptyFolder: String?) -> [String] {
        // An https URL may only be redirected to https (an http hop would drop the TLS check);
        // an http one may be upgraded. Never file://, ftp:// or any other scheme.
        let secure = url.lowercased().hasPrefix("https://") || pinnedCA != nil
        let schemes = secure ? "=https" : "=https,http"
        var options = ["--silent", "--show-error", "--location", "--max-redirs", String(limits.maxRedirects),
                       "--proto", schemes, "--proto-redir", schemes,
                       "--connect-timeout", String(limits.connectSeconds),
                       "--speed-limit", String(limits.lowSpeedBytes), "--speed-time", String(limits.lowSpeedSeconds),
                       "--max-filesize", String(limits.maxBytes), "--fail", "--user-agent", "kiosk-carousel/\(KioskVersion.string)"]
        if let pinnedCA, let emptyFolder { options += ["--cacert", pinnedCA, "--capath", emptyFolder] }
        return options
    }

    /// Runs curl for `url` with the common options and `extra`, in the pinned CA's empty
    /// certificate folder when one is pinned; `stopWhen` as `ChildProcess.run`'s.
    func runCurl(_ url: String, _ extra: [String], stopWhen: (() -> String?)? = nil) throws(Failure) -> ChildProcess.Result {
        var emptyFolder: String?
        if let pinnedCA {
            guard access(pinnedCA, R_OK) == 0 else {
                throw Failure(description: "the pinned CA file \(pinnedCA) ([update] ca) cannot be read: \(String(cString: strerror(errno)))",
                              resumable: false)
            }
            var template = Array((NSTemporaryDirectory() + "kiosk-no-ca-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw Failure(description: "a scratch folder for curl cannot be made: \(String(cString: strerror(errno)))", resumable: false)
            }
            emptyFolder = String(cString: made)
        }
        defer { if let emptyFolder { rmdir(emptyFolder) } }
        do {
            return try ChildProcess.run([curl] + common(for: url, emptyFolder: emptyFolder) + extra + [url], stopWhen: stopWhen)
        } catch {
            throw Failure(description: "curl cannot be run: \(error)", resumable: false)
        }
    }

    /// Asks the server for the file's ETag, Last-Modified and size, without its body.
    public func remote(_ url: String) throws(Failure) -> Remote {
        let maxSeconds = limits.connectSeconds + limits.lowSpeedSeconds
        let result = try runCurl(url, ["--max-time", String(maxSeconds), "--head"])
        guard result.status == 0 else { throw failure(result, url: url, partial: nil, maxSeconds: maxSeconds) }
        // After redirects curl prints each response's headers: the last block is the file's.
        let blocks = result.output.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n\n").filter { !$0.isEmpty }
        var remote = Remote()
        for line in (blocks.last ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "etag": remote.etag = parts[1]
            case "last-modified": remote.lastModified = parts[1]
            case "content-length": remote.size = Int64(parts[1])
            default: break
            }
        }
        if let size = remote.size, size > limits.maxBytes {
            throw Failure(description: "the file is \(size) bytes, larger than an update may be (\(limits.maxBytes) bytes)", resumable: false)
        }
        return remote
    }

    /// Downloads `url` into `folder` as `name` (through `name.part`, resumed when a part of the
    /// same remote file is there). `progress` hears the bytes so far. Returns the file's path.
    public func fetch(_ url: String, remote: Remote, into folder: String, name: String,
                      progress: (Int64) -> Void = { _ in }) throws(Failure) -> String {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let target = folder + "/" + name, part = target + ".part", partInfo = part + ".json"
        // A part of another version of the file is not resumed.
        let startedFrom = (try? StatusFile.read(Remote.self, from: partInfo)) ?? nil
        if startedFrom != remote || remote.isAnonymous { unlink(part) }
        do { try StatusFile.write(remote, to: partInfo) } catch {
            throw Failure(description: "\(partInfo) cannot be written: \(error)", resumable: false)
        }
        unlink(target)
        for attempt in 0..<2 {
            if let size = remote.size, Self.size(of: part) == size { break }   // whole already (cut off before the rename)
            progress(Self.size(of: part) ?? 0)
            // curl 7.88 (bookworm) bounds only a size the server announces: a body longer than
            // that (or endless, without a length) is cut here.
            let bound = remote.size ?? limits.maxBytes
            let result = try runCurl(url, ["--max-time", String(limits.maxSeconds), "--continue-at", "-", "--output", part],
                                     stopWhen: { (Self.size(of: part) ?? 0) > bound ? "more than \(bound) bytes" : nil })
            // 33: the server does not do ranges; 416: the part is longer than the file. Start again once.
            if attempt == 0 && (result.status == 33 || result.errors.contains("416")) {
                unlink(part)
                continue
            }
            if let stopped = result.stopped {
                unlink(part)
                throw Failure(description: "the server sent \(stopped), "
                              + (remote.size == nil ? "more than an update may be" : "more than it said the file has"), resumable: false)
            }
            guard result.status == 0 else { throw failure(result, url: url, partial: Self.size(of: part), maxSeconds: limits.maxSeconds) }
            break
        }
        let got = Self.size(of: part) ?? 0
        if let size = remote.size, got != size {
            // Longer than the server said: not the file it described. Shorter: resumed later.
            if got > size { unlink(part) }
            throw Failure(description: "the download has \(got) bytes, the server said \(size)", resumable: got < size)
        }
        guard rename(part, target) == 0 else {
            throw Failure(description: "\(target): \(String(cString: strerror(errno)))", resumable: true)
        }
        unlink(partInfo)
        progress(got)
        return target
    }

    static func size(of path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }

    /// curl's exit status in words (`man curl`, EXIT CODES), naming the limit that ended it.
    /// `maxSeconds`: the `--max-time` the request had.
    func failure(_ r: ChildProcess.Result, url: String, partial: Int64?, maxSeconds: Int) -> Failure {
        let kept = (partial ?? 0) > 0
        let said = r.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        let why: String
        switch r.status {
        case 6: why = "the server's name cannot be resolved"
        case 7: why = "the server cannot be reached"
        case 18: why = "the server ended the transfer before the end of the file"
        case 22: why = "the server answered with an error (\(said.components(separatedBy: "error: ").last ?? said))"
        case 28:
            // curl says which of its timeouts it was: "Operation too slow", "Connection timed
            // out" / "Failed to connect … Timeout was reached", or "Operation timed out".
            let lower = said.lowercased()
            if lower.contains("too slow") {
                why = "the server was too slow (below \(limits.lowSpeedBytes) bytes a second for \(limits.lowSpeedSeconds) s: "
                    + "a stalled or trickling transfer is given up)"
            } else if lower.contains("connect") || lower.contains("resolv") {
                why = "the server did not accept the connection within \(limits.connectSeconds) s"
            } else {
                why = "the server was too slow (the transfer took longer than the most it may, \(maxSeconds) s)"
            }
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91:
            // curl's first line names the problem; the rest is advice for a person at a terminal.
            why = "the server's TLS certificate or connection cannot be trusted (\(said.split(separator: "\n").first ?? ""))"
        case 47: why = "too many redirects"
        case 63: why = "the file is larger than an update may be (\(limits.maxBytes) bytes)"
        case 1:
            why = "the URL's protocol, or a redirect's, is not allowed (https, and http only for an http:// URL without [update] ca): \(said)"
        case 23: why = "the download cannot be written (is the disk full?)"
        case 56: why = "the connection broke off (\(said))"
        default: why = "curl failed (\(r.status)): \(said)"
        }
        return Failure(description: why + (kept ? "; the next check resumes it" : ""), resumable: kept)
    }
}
