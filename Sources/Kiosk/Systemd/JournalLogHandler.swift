import Foundation
import Glibc
import LinuxSystem
import Logging

/// A swift-log handler for a service: one line per message on standard error, prefixed with the
/// syslog priority `<N>` that journald reads (`<3>` error … `<7>` debug), so `journalctl -p
/// warning` works without libsystemd. On a terminal it writes `LEVEL label: message` instead.
public struct JournalLogHandler: LogHandler {
    public enum Style: Sendable {
        /// `<6>kiosk.actions: message key=value`
        case journal
        /// `info kiosk.actions: message key=value`
        case plain

        /// `journal` when standard error is the journal (`$JOURNAL_STREAM` names it) or not a
        /// terminal (a pipe to a supervisor), `plain` on a terminal.
        public static func automatic(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
            if environment["JOURNAL_STREAM"] != nil { return .journal }
            return isatty(2) == 1 ? .plain : .journal
        }
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public let label: String
    public let style: Style
    private let output: @Sendable (String) -> Void

    /// - Parameters:
    ///   - output: receives each finished line, newline included; default: one `write(2)` to
    ///     standard error (whole lines, so concurrent threads never interleave within a line).
    public init(label: String, level: Logger.Level = .info, style: Style = .automatic(),
                output: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError) {
        self.label = label
        self.logLevel = level
        self.style = style
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The syslog priority journald uses for a level.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let suffix = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let prefix: String
        switch style {
        case .journal: prefix = "<\(Self.priority(event.level))>\(label): "
        case .plain: prefix = "\(event.level) \(label): "
        }
        // Every line of a multi-line message keeps the priority.
        let text = "\(event.message)" + suffix
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        output(lines.map { prefix + $0 }.joined(separator: "\n") + "\n")
    }

    /// Writes `text` to file descriptor 2 with as few `write` calls as possible.
    public static let writeToStandardError: @Sendable (String) -> Void = { text in
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf in retryingOnEINTR { Glibc.write(2, buf.baseAddress! + offset, buf.count - offset) } }
            if n <= 0 { return }
            offset += n
        }
    }
}

/// `--log-level` and the logging bootstrap.
public enum KioskLogging {
    /// The accepted spellings, for help texts.
    public static let levelNames = "trace, debug, info, notice, warning, error, critical (or syslog 0-7)"

    /// Parses a level name (any case; `warn`, `err`, `crit` too) or a syslog priority digit.
    public static func parseLevel(_ text: String) throws -> Logger.Level {
        switch text.lowercased() {
        case "trace": return .trace
        case "debug", "7": return .debug
        case "info", "6": return .info
        case "notice", "5": return .notice
        case "warning", "warn", "4": return .warning
        case "error", "err", "3": return .error
        case "critical", "crit", "alert", "emerg", "2", "1", "0": return .critical
        default: throw LogLevelError(description: "unknown log level '\(text)'; use one of \(levelNames)")
        }
    }

    /// Makes every `Logger` write through `JournalLogHandler` at `level`. Call once, first thing.
    public static func bootstrap(level: Logger.Level, style: JournalLogHandler.Style = .automatic()) {
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level, style: style) }
    }
}

/// `--log-level` was not a level.
public struct LogLevelError: Error, CustomStringConvertible {
    public var description: String
}
