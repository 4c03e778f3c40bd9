import Foundation
import Kiosk

/// The main thread's word to the fonts' thread about the first frame, given once: what to draw
/// ahead of it (`FirstFrameAhead`, once the screen is open and its size known), or that there is
/// nothing to draw (the start failed before that). The first word counts; later ones are ignored,
/// so `run` can say "nothing" on every way out without undoing what it said before.
final class FirstFrameHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var word: FirstFrameAhead??

    /// Gives the fonts' thread `ahead` (nil: nothing to draw), unless a word was given already.
    func give(_ ahead: FirstFrameAhead?) {
        condition.lock()
        defer { condition.unlock() }
        guard word == nil else { return }
        word = .some(ahead)
        condition.broadcast()
    }

    /// Waits for the main thread's word and returns it (nil: nothing to draw).
    func take() -> FirstFrameAhead? {
        condition.lock()
        defer { condition.unlock() }
        while word == nil { condition.wait() }
        return word ?? nil
    }
}
