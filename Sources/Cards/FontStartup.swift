import CCardLibs

/// Starts loading the fonts as early as possible in the kiosk's start-up.
///
/// The first frame needs text (the focused item's title, drawn on the main loop; the card
/// titles, drawn on the workers), and text needs fontconfig's configuration and caches loaded
/// (`FcInit`). pango 1.50 does that in a thread of its own, `[pango] FcInit`, started when the
/// first pango font map is made, and every text call waits for it. Made by the first frame, that
/// load sits between `running:` and `first frame on screen`: seen in the VM as 8 s of a 30 s first
/// start, with the main thread and both card workers waiting on a futex and `[pango] FcInit`
/// reading `/etc/fonts` and the caches over 9p (docs/start-up.md). `begin()` makes the font map
/// at once, so the load overlaps reading the config and opening the display; `loadConfiguration()`
/// does pango's part (`FcInit`) before pango is even open. `listFamilies()` then lists the
/// installed families once that load is done (`FontCatalog`, 5.7 M instructions): the config's
/// font check finds them listed instead of listing them on the main thread. `run` calls the
/// three on its fonts' thread, which opens cairo and pango between the first and the second
/// (`StartupLibraries`; docs/start-up.md, "The drawing libraries behind the start").
public enum FontStartup {
    /// Loads fontconfig's configuration and caches (`FcInit`) once, opening fontconfig first
    /// (`CardLibraries.loadFontconfig()`): pango's fontconfig thread then finds them loaded. A
    /// call while another thread loads them waits for that load; later calls return at once.
    /// False when fontconfig could not be opened or loaded (the first text says so).
    ///
    /// Every path that makes fontconfig or pango load the configuration calls it first (the font
    /// check, the font catalogue, a text layout, an SVG document, `begin()`): `FcInit` on two
    /// threads at once is two whole loads (fontconfig keeps the first to finish and throws the
    /// other away), and pango's thread, started by the main thread's font check while `run`'s
    /// fonts' thread was still loading, made each start parse `/etc/fonts` twice and wait for the
    /// later load (seen in 2 of 5 native starts, `strace -f -e openat`: `fonts.conf` opened by
    /// both threads; docs/start-up.md, stop 54).
    @discardableResult
    public static func loadConfiguration() -> Bool { configurationLoaded }

    private static let configurationLoaded: Bool = {
        guard (try? CardLibraries.loadFontconfig()) != nil else { return false }
        return FcInit() != 0
    }()

    /// Starts pango's fontconfig thread (returns at once; safe to call more than once). Opens
    /// cairo and pango first when they are not open (`CardLibraries`). Call after the signal mask
    /// is set: the thread inherits it.
    public static func begin() {
        loadConfiguration()
        _ = pango_cairo_font_map_get_default()
    }

    /// Lists the installed families through fontconfig alone, before cairo and pango are open
    /// (`FontCatalog.listThroughFontconfig`): the config's font check needs no pango for a font
    /// that is installed (`FontCheck`, `FontStringFamilies`).
    public static func listFamiliesThroughFontconfig() {
        FontCatalog.listThroughFontconfig()
    }

    /// Lists the installed families, under the lock the card workers and the font check take
    /// (`FontCatalog.installed()` keeps the list); waits for pango's fontconfig thread.
    public static func listFamilies() {
        FontLock.withLock { _ = FontCatalog.installed() }
    }
}
