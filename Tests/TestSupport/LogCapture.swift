import Foundation
import Logging

/// A swift-log destination that keeps every message, for asserting on log lines ("logged once",
/// "names the file"). Safe to log into from any thread.
public final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(level: Logger.Level, message: String)] = []

    public init() {}

    /// Every message as "LEVEL: message", in order.
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return entries.map { "\($0.level): \($0.message)" } }

    /// The messages logged at `level`, in order.
    public func messages(_ level: Logger.Level) -> [String] {
        lock.lock(); defer { lock.unlock() }
        return entries.filter { $0.level == level }.map(\.message)
    }

    func append(_ level: Logger.Level, _ message: String) { lock.lock(); entries.append((level, message)); lock.unlock() }

    /// A logger whose every message (trace and up) lands here.
    public var logger: Logger { Logger(label: "test") { _ in Handler(capture: self) } }

    /// The handler, for a `Logger(label:factory:)` of the caller's own.
    public var handler: Handler { Handler(capture: self) }

    public struct Handler: LogHandler {
        let capture: LogCapture
        public var metadata: Logger.Metadata = [:]
        public var logLevel: Logger.Level = .trace
        public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        public func log(event: LogEvent) {
            capture.append(event.level, event.message.description)
        }
    }
}
