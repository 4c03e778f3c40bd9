import CCardLibsLoader
import LinuxSystem

/// cairo and pango (with GLib, GObject and GIO), fontconfig, and the picture decoders
/// (libjpeg-turbo, libpng, libwebp), opened with dlopen instead of by the loader before `main`:
/// with cairo and pango come some thirty libraries whose mapping, relocations and constructors
/// the main thread paid before its first line (docs/start-up.md, "The drawing libraries behind
/// the start"). `run` opens fontconfig, cairo and pango on a thread of its own as it starts; the
/// decoders, and anything `run` has not opened yet, open at the first call, which waits for a
/// load under way on another thread.
/// `CCardLibsLoader` defines the functions Cards calls; each jumps into the library's own.
public enum CardLibraries {
    /// Opens cairo, pango, GLib, GObject and GIO once; later calls give the first answer. Throws the
    /// loader's words (a library not installed, or one without a function this program calls).
    public static func loadDrawing() throws(LibraryMissing) {
        if let words = LibraryLoad.failure(kc_card_libs_load) {
            throw LibraryMissing(libraries: String(cString: kc_card_libs_sonames()), reason: words)
        }
    }

    /// Opens fontconfig once, likewise (a set of its own: `run` opens it first and starts loading
    /// fontconfig's configuration before cairo and pango are open, `FontStartup`).
    public static func loadFontconfig() throws(LibraryMissing) {
        if let words = LibraryLoad.failure(kc_fontconfig_load) {
            throw LibraryMissing(libraries: String(cString: kc_fontconfig_soname()), reason: words)
        }
    }

    /// Opens the picture decoders once, likewise.
    public static func loadImageDecoders() throws(LibraryMissing) {
        if let words = LibraryLoad.failure(kc_image_decoders_load) {
            throw LibraryMissing(libraries: String(cString: kc_image_decoders_sonames()), reason: words)
        }
    }

    /// Why a set of libraries could not be opened.
    public struct LibraryMissing: Error, CustomStringConvertible {
        /// The set's sonames, space-separated.
        public let libraries: String
        /// The loader's words.
        public let reason: String
        public var description: String { "\(libraries) could not be loaded: \(reason)" }
    }
}
