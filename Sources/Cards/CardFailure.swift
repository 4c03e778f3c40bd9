/// Why a card could not show its content: the file (or item) at fault and the reason, in words a
/// kiosk builder can act on. A failed card shows the "!" face (a missing file: its title only); the pipeline logs this once.
public struct CardFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The image path, or `item 'ID'` when the fault is not a file (a missing font).
    public var file: String
    public var reason: String
    /// The file is not on disk (deleted, or a folder of its path is gone): the card shows its
    /// title on the loading face (`CardFaceRenderer.missingFace`), not the "!" face, which is for
    /// files that are there but cannot be shown.
    public var missing: Bool

    public init(file: String, reason: String, missing: Bool = false) {
        self.file = file
        self.reason = reason
        self.missing = missing
    }

    public var description: String { "\(file): \(reason)" }
}
