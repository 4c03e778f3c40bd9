import Foundation
import LinuxSystem

/// The first frame's text overlays — the focused item's title and the language badge — drawn on
/// another thread and handed to the loop's `OverlayRenderer` as each is ready.
///
/// The first text a process draws is its slowest: pango, HarfBuzz, FreeType and cairo run their
/// code for the first time (under QEMU's TCG every new block is translated before it runs), the
/// font file is opened and its tables read. `run`'s fonts' thread draws these once the screen is
/// open (`FirstFrameAhead`); the renderer, given this box (`drawnAhead`), shows an overlay the
/// box holds instead of drawing it again, and *leaves out* one the box has promised but not drawn
/// yet, so the first frame — the background, the loading faces, the dots — does not wait for
/// text; the overlay comes with the frame after it arrives (`eventFD` wakes the loop). One the
/// box never promised, or any overlay once the box is `finished` without it (the thread could
/// not load the fonts), the renderer draws itself, as without a box (docs/start-up.md, stop 56).
///
/// Everything here is for a style and a screen size: a renderer with another style or size
/// takes nothing from it (`serves`).
public final class OverlaysDrawnAhead: @unchecked Sendable {
    /// What the overlays were drawn with: the renderer's must be the same.
    public let style: OverlayStyle
    public let screenWidth: Int
    public let screenHeight: Int
    /// The title text the box promises (nil: none) and the badge's language code (nil: none).
    public let promisedTitle: String?
    public let promisedBadge: String?

    /// What the renderer finds for an overlay it needs.
    public enum Lookup {
        /// Drawn: this overlay (nil: the title draws nothing, e.g. no room for it).
        case drawn(Overlay?)
        /// Promised and still being drawn: leave it out of this frame.
        case coming
        /// Not from here: draw it yourself.
        case notHere
    }

    private let lock = NSLock()
    private var title: Overlay??
    private var badge: Overlay?
    private var finished = false
    private let signal: EventFD

    /// A box for the overlays a renderer with `style` on a `screenWidth`×`screenHeight` frame
    /// shows for `title` and the badge of `badge`; nil when there is nothing to promise or no
    /// eventfd can be made (the renderer then draws its text itself).
    public init?(style: OverlayStyle, screenWidth: Int, screenHeight: Int, title: String?, badge: String?) {
        guard title != nil || badge != nil, let signal = try? EventFD() else { return nil }
        self.style = style
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        promisedTitle = title
        promisedBadge = badge
        self.signal = signal
    }

    /// Readable once something was handed over or the box finished: the loop watches it and
    /// calls `acknowledge()`.
    public var eventFD: Int32 { signal.fd }

    /// Clears `eventFD`'s readiness; true once the box is finished (nothing more will come).
    @discardableResult
    public func acknowledge() -> Bool {
        signal.reset()
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// True once the box is finished.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Whether a renderer drawing with `style` on a frame of this size can take from the box.
    public func serves(style: OverlayStyle, screenWidth: Int, screenHeight: Int) -> Bool {
        style == self.style && screenWidth == self.screenWidth && screenHeight == self.screenHeight
    }

    // MARK: The drawing thread

    /// Hands over the title drawn for `promisedTitle`.
    public func deliver(title overlay: Overlay?) {
        lock.lock()
        title = .some(overlay)
        lock.unlock()
        signal.signal()
    }

    /// Hands over the badge drawn for `promisedBadge`.
    public func deliver(badge overlay: Overlay) {
        lock.lock()
        badge = overlay
        lock.unlock()
        signal.signal()
    }

    /// Nothing more comes: what was not handed over, the renderer draws itself. Call on every
    /// way the drawing ends, drawn or not (more than once is harmless).
    public func finish() {
        lock.lock()
        finished = true
        lock.unlock()
        signal.signal()
    }

    // MARK: The renderer

    /// The title for `text`.
    public func title(_ text: String) -> Lookup {
        lock.lock()
        defer { lock.unlock() }
        guard text == promisedTitle else { return .notHere }
        if let drawn = title { return .drawn(drawn) }
        return finished ? .notHere : .coming
    }

    /// The badge for `code`.
    public func badge(_ code: String) -> Lookup {
        lock.lock()
        defer { lock.unlock() }
        guard code == promisedBadge else { return .notHere }
        if let badge { return .drawn(badge) }
        return finished ? .notHere : .coming
    }
}
