/// When the metrics file is written: at most once per `interval` seconds and only after a change.
/// Pure bookkeeping on the times it is given (the loop's clock; tests give a fake one).
///
/// A change after a quiet spell (no write for `interval`) is due at once; a change sooner after a
/// write is due `interval` after that write. Nothing is due without a change, so a still kiosk
/// arms no timer for its metrics.
public struct MetricsSchedule: Sendable {
    public let interval: Double
    /// When the last write was taken; nil: never.
    public private(set) var lastWrite: Double?
    /// When the next write is due; nil: nothing changed since the last one.
    public private(set) var due: Double?

    public init(interval: Double) { self.interval = max(0, interval) }

    /// Something changed at `now`.
    public mutating func changed(now: Double) {
        guard due == nil else { return }
        due = lastWrite.map { max(now, $0 + interval) } ?? now
    }

    /// True (once) when a write is due at `now`: the caller writes.
    public mutating func take(now: Double) -> Bool {
        guard let d = due, now >= d else { return false }
        due = nil
        lastWrite = now
        return true
    }
}
