/// Why a card could not show its content: the file (or item) at fault and the reason, in words a
/// kiosk builder can act on. A failed card shows the "!" face; the pipeline logs this once.
public struct CardFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The image path, or `item 'ID'` when the fault is not a file (a missing font).
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
