import Foundation

/// One process-wide lock around every use of cairo scaled fonts: pango layouts (made, measured,
/// drawn, released), the cairo contexts they drew on (released), and SVG documents (librsvg
/// draws `<text>` with pango).
///
/// The kiosk draws text on several threads at once: the card workers draw card faces while the
/// main loop draws the title overlay, and all of them start together for the first frame.
/// cairo 1.16.0 (Debian 12's `libcairo2`) shares its scaled-font map and font-face caches
/// between threads and is known to break when several threads create and release fonts at the
/// same moment. Seen in the VM: `kiosk-carousel run` died with SIGSEGV in
/// `cairo_scaled_font_create` (a NULL + 0x20 read) on a card worker during its first frame, the
/// main thread and the other worker waiting on a lock (1 of 110 starts; see `docs/start-up.md`).
/// Pictures are decoded and scaled outside this lock (`bench cards` showed no difference;
/// figures in that document).
///
/// Recursive, so a text operation may call another (a stack of layouts measured while drawn).
enum FontLock {
    private static let lock: NSRecursiveLock = {
        let l = NSRecursiveLock()
        l.name = "kiosk.cards.font"
        return l
    }()

    /// Runs `body` holding the lock.
    @inline(__always)
    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
