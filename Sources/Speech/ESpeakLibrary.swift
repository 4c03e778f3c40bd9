import CESpeakNGLoader
import LinuxSystem

/// espeak-ng, opened when the kiosk first speaks, not when the program starts: with it come
/// PulseAudio's client libraries, libsndfile and its codecs, D-Bus and libsystemd, which a kiosk
/// without speech would load at every start (docs/start-up.md, "Libraries opened on demand").
/// `CESpeakNGLoader` defines the espeak-ng functions `ESpeakSynthesizer` calls; each jumps into
/// the library's own.
enum ESpeakLibrary {
    /// Opens it once; later calls give the first answer. Throws `SpeechError.library` with the
    /// loader's words (the library not installed, or one without a function this program calls).
    static func load() throws(SpeechError) {
        if let words = LibraryLoad.failure(kc_espeak_ng_load) { throw .library(soname: soname, reason: words) }
    }

    /// The soname this program opens, `libespeak-ng.so.1`.
    static var soname: String { String(cString: kc_espeak_ng_sonames()) }
}
