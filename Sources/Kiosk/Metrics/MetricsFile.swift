import Foundation
import Glibc
import LinuxSystem
import Logging

/// Writes the metrics text to its file atomically: a temporary file in the same folder
/// (`.NAME.PID.tmp`, which node_exporter's textfile collector ignores: it reads `*.prom`), made
/// mode 0644 whatever the umask (the collector runs as another user), `fsync`ed, then renamed over
/// the target. A reader sees the old file or the new one, never half of one; on any failure the
/// temporary file is removed and the old file stays.
///
/// A failure is logged once (one line naming the path and the cause) and again only when the
/// cause changes; a write that works after failures says so once. The kiosk goes on either way.
///
/// With `asynchronous`, writes run on a thread of their own (an fsync on an SD card can take
/// tens of milliseconds: never on the loop); a write asked for while one is running replaces any
/// that waits (only the newest text matters). That thread keeps the writer alive until `stop()`.
public final class MetricsFile: @unchecked Sendable {
    /// The file name used in a folder target (node_exporter's collector folder).
    public static let folderFileName = "kiosk_carousel.prom"

    /// The configured path (a file or a folder).
    public let path: String
    private let logger: Logger
    private let condition = NSCondition()
    private var pending: String?
    private var busy = false
    private var stopped = false
    private var thread: Thread?
    private var lastFailure: String?
    /// Writes done and failed (for tests and the log).
    public private(set) var writes = 0
    public private(set) var failures = 0

    public init(path: String, asynchronous: Bool, logger: Logger) {
        self.path = path
        self.logger = logger
        if asynchronous {
            // The thread holds the writer until `stop()` (no use after free while it waits).
            let t = Thread { self.run() }
            t.name = "kiosk-metrics"
            thread = t
            t.start()
        }
    }

    /// The file written: `path`, or `kiosk_carousel.prom` in it when it is a folder (or ends in `/`).
    public var target: String {
        var isDir: ObjCBool = false
        if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue) {
            return (path as NSString).appendingPathComponent(Self.folderFileName)
        }
        return path
    }

    /// Writes `text` (now, or on the writer's thread when asynchronous).
    public func write(_ text: String) {
        guard thread != nil else { writeNow(text); return }
        condition.lock()
        pending = text
        condition.signal()
        condition.unlock()
    }

    /// Waits until no write is waiting or running (tests; the last write at exit).
    public func flush() {
        guard thread != nil else { return }
        condition.lock()
        while pending != nil || busy { condition.wait() }
        condition.unlock()
    }

    /// Ends the writer's thread after the write that waits, if any.
    public func stop() {
        guard thread != nil else { return }
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while pending == nil && !stopped { condition.wait() }
            guard let text = pending else { condition.unlock(); return }
            pending = nil
            busy = true
            condition.unlock()
            writeNow(text)
            condition.lock()
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// One atomic write, with the logging described above.
    func writeNow(_ text: String) {
        let file = target
        do {
            try AtomicFile.write(Array(text.utf8), to: file)
            writes += 1
            if lastFailure != nil {
                logger.notice("metrics: writing \(file) works again")
                lastFailure = nil
            }
        } catch {
            failures += 1
            let message = "\(error)"
            if message != lastFailure {
                logger.error("metrics: \(message); the kiosk goes on, and tries again at the next change")
                lastFailure = message
            }
        }
    }
}
