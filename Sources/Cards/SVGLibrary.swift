import CRsvgLoader
import LinuxSystem

/// librsvg, opened when the first SVG is drawn or checked, not when the program starts: with it
/// come libxml2, ICU, gdk-pixbuf and some twenty more libraries that a carousel without SVG
/// would load at every start (docs/start-up.md, "Libraries opened on demand"). `CRsvgLoader`
/// defines the librsvg functions `SVGDocument` calls; each jumps into the library's own.
enum SVGLibrary {
    /// Opens it once; later calls give the first answer. Throws the loader's words (the
    /// library not installed, or one without a function this program calls).
    static func load() throws(LibraryMissing) {
        if let words = LibraryLoad.failure(kc_rsvg_load) { throw LibraryMissing(reason: words) }
    }

    /// The soname this program opens, `librsvg-2.so.2`.
    static var soname: String { String(cString: kc_rsvg_sonames()) }

    /// Why librsvg could not be opened.
    struct LibraryMissing: Error, CustomStringConvertible {
        let reason: String
        var description: String { "librsvg (\(SVGLibrary.soname)) could not be loaded: \(reason)" }
    }
}
