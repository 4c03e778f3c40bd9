import Foundation
import Kiosk

/// The main thread's word to the fonts' thread about the first frame, given once: what to draw
/// ahead of it (`FirstFrameAhead`, once the screen is open and its size known), or that there is
/// nothing to draw (the start failed before that). The first word counts; later ones are ignored,
/// so `run` can say "nothing" on every way out without undoing what it said before.
///
/// The session leaves the first frame's title out while the thread draws it, so every text box
/// given here is finished by someone: by the thread once it drew it, or here, when the thread
/// ended (or never started) without taking it (`close`) — the session then draws its own.
final class FirstFrameHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var word: FirstFrameAhead??
    private var taken = false
    private var closed = false

    /// Gives the fonts' thread `ahead` (nil: nothing to draw), unless a word was given already.
    func give(_ ahead: FirstFrameAhead?) {
        condition.lock()
        defer { condition.unlock() }
        guard word == nil, !closed else {
            // Nobody will draw it.
            if word == nil { word = .some(ahead) }
            ahead?.text?.finish()
            return
        }
        word = .some(ahead)
        condition.broadcast()
    }

    /// Waits for the main thread's word and returns it (nil: nothing to draw); the caller
    /// draws it (which finishes its text box).
    func take() -> FirstFrameAhead? {
        condition.lock()
        defer { condition.unlock() }
        while word == nil { condition.wait() }
        taken = true
        return word ?? nil
    }

    /// The fonts' thread will take nothing: a word given and not taken, or given later, is
    /// finished here (its text is drawn by the session).
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        if !taken, let given = word { given?.text?.finish() }
    }
}
