/// The signature of a libFuzzer test function (`LLVMFuzzerTestOneInput`).
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// libFuzzer's own driver (compiler-rt, `FuzzerDriver.cpp`), linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ test: FuzzTest) -> CInt

/// Runs libFuzzer with the command line it was given.
///
/// SwiftPM links every executable with `main` aliased to `<Module>_main`, which would hide
/// libFuzzer's own `main`; each harness therefore defines `<Module>_main` and calls this.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                         _ test: FuzzTest) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}

/// The bytes libFuzzer hands over, as text (invalid UTF-8 repaired, as the program reads files).
public func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    guard let data, size > 0 else { return "" }
    return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}
