/// What a loader under `Sources/C/*Loader` answered when asked to open its set of libraries with
/// dlopen (`kc_…_load(error, size)`: 0 once the set is open, -1 with the loader's words —
/// the library not installed, or one without a function this program calls; docs/start-up.md,
/// "Libraries opened on demand").
public enum LibraryLoad {
    /// Calls `load` (a loader's `kc_…_load`): nil when the set is open, else the loader's words.
    /// The words go to a buffer on the stack: a set already open costs one atomic read.
    public static func failure(_ load: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { words in
            words.initialize(repeating: 0)
            return load(words.baseAddress, words.count) == 0 ? nil : String(cString: words.baseAddress!)
        }
    }
}
