import CarouselCore
import Foundation
import JSON
import KioskConfig
import LinuxSystem

/// Writes events as JSON lines (`{"t":…,"event":…,…}`) to a file or standard output.
/// Numbers are printed with fixed precision so that simulation output is byte-for-byte stable.
public final class EventLog {
    private let file: OutputFile?
    private var buffer: [String] = []
    /// How many of the latest lines `lines` keeps (a kiosk writes events for months).
    public let retainedLines: Int

    /// What the running kiosk keeps (`kiosk-carousel run`): it reads only the last line (to hand
    /// it to control clients), and 10,000 kept lines are ~1.5–3 MB that fill over the first
    /// hours or days of use — growth an endurance run cannot tell from a leak.
    public static let runningKioskLines = 64

    /// Logs to `path` (`-` is standard output); nil logs nowhere but still collects lines.
    /// `lines` keeps only the latest lines (see `lines`), so memory stays bounded however long
    /// the program runs. A file that cannot be created throws a `FileWriteError` naming `path`.
    public init(path: String?, retainedLines: Int = 10_000) throws {
        self.retainedLines = max(0, retainedLines)
        file = try path.map { try OutputFile(path: $0) }
    }

    /// The first line the file did not take (disk full, a closed pipe), or nil.
    public private(set) var writeFailure: FileWriteError?

    /// The latest lines written, oldest first (for tests and the control socket): at least the
    /// last `retainedLines`, at most twice as many — trimmed in batches so that appending stays
    /// O(1) amortized and `lines.last` costs nothing.
    public private(set) var lines: [String] = []

    /// Formats and writes one engine event; `selected` gets the item's id and title.
    public func write(_ e: TimedCarouselEvent, items: [ItemConfig]) {
        var fields: [(String, String)] = []
        switch e.event {
        case .currentIndexChanged(let i): fields.append(("index", String(i)))
        case .selected(let i):
            fields.append(("index", String(i)))
            if items.indices.contains(i) {
                fields.append(("id", JSONString.quoted(items[i].id)))
                fields.append(("title", JSONString.quoted(items[i].title)))
            }
        default: break
        }
        write(time: e.time, name: e.event.name, fields: fields)
    }

    /// Writes an event with already-JSON-encoded field values (strings through `JSONString.quoted`).
    public func write(time: Double, name: String, fields: [(String, String)] = []) {
        var s = "{\"t\":\(String(format: "%.4f", time)),\"event\":\(JSONString.quoted(name))"
        for (k, v) in fields { s += ",\(JSONString.quoted(k)):\(v)" }
        s += "}"
        lines.append(s)
        if lines.count > 2 * max(1, retainedLines) { lines.removeFirst(lines.count - retainedLines) }
        // An events file that stops taking lines (disk full) does not stop the kiosk; the first
        // failure is kept for `simulate` to report.
        do { try file?.write(s + "\n") } catch { if writeFailure == nil { writeFailure = error } }
    }
}
