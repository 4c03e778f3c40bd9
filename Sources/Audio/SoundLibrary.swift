import CALSALoader
import LinuxSystem

/// ALSA's libasound, opened with dlopen when the kiosk first opens a sound device, not by the
/// loader before `main` (docs/start-up.md, "The drawing libraries behind the start").
/// `CALSALoader` defines the functions Audio calls; each jumps into the library's own.
enum SoundLibrary {
    /// Opens it once; later calls give the first answer. Throws the loader's words as an error
    /// about `device` (libasound not installed, or one without a function this program calls).
    static func load(for device: String) throws {
        if let words = LibraryLoad.failure(kc_alsa_load) {
            throw SoundLibraryMissing(device: device, reason: "\(String(cString: kc_alsa_soname())) could not be loaded: \(words)")
        }
    }
}

/// libasound could not be opened: the sound device is not used, as when it cannot be opened.
struct SoundLibraryMissing: Error, CustomStringConvertible {
    let device: String
    let reason: String
    var description: String { "ALSA device \"\(device)\": \(reason)" }
}
