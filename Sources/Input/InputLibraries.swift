import CInputLibsLoader
import LinuxSystem

/// libinput and libevdev (and, with libinput, libwacom, libgudev and libmtdev), opened with
/// dlopen instead of by the loader before `main`: the input devices open after the first frame
/// (docs/input.md, "When they open"; docs/start-up.md, "The drawing libraries behind the
/// start"), and each source opens these before its first call. `CInputLibsLoader` defines the
/// functions Input calls; each jumps into the library's own.
public enum InputLibraries {
    /// Opens them once; later calls give the first answer. Throws `InputDeviceError.setup` with
    /// the loader's words (a library not installed, or one without a function this program calls).
    public static func load() throws {
        if let words = LibraryLoad.failure(kc_input_libs_load) {
            throw InputDeviceError.setup("\(String(cString: kc_input_libs_sonames())) could not be loaded: \(words)")
        }
    }
}
