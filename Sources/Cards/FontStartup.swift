import CCardLibs
import Foundation
import LinuxSystem

/// Starts loading the fonts as early as possible in the kiosk's start-up.
///
/// The first frame needs text (the focused item's title, drawn on the main loop; the card
/// titles, drawn on the workers), and text needs fontconfig's configuration and caches loaded
/// (`FcInit`). pango 1.50 does that in a thread of its own, `[pango] FcInit`, started when the
/// first pango font map is made, and every text call waits for it. Made by the first frame, that
/// load sits between `running:` and `first frame on screen`: seen in the VM as 8 s of a 30 s first
/// start, with the main thread and both card workers waiting on a futex and `[pango] FcInit`
/// reading `/etc/fonts` and the caches over 9p (docs/start-up.md). `begin()` makes the font map
/// at once, so the load overlaps opening the display and the input devices. A thread of ours
/// then lists the installed families once that load is done (`FontCatalog`, 5.7 M instructions):
/// the config's font check finds them listed instead of listing them on the main thread.
public enum FontStartup {
    /// Starts pango's fontconfig thread and the families' listing (returns at once; safe to call
    /// more than once). Call after the signal mask is set: the threads inherit it.
    public static func begin() {
        _ = pango_cairo_font_map_get_default()
        _ = listing
    }

    /// The thread that lists the families, started once.
    private static let listing: Void = {
        Thread.detachNewThread {
            CurrentThread.setName("font families")
            // pango's calls go under the lock the card workers and the font check take.
            FontLock.withLock { _ = FontCatalog.installed() }
        }
    }()
}
