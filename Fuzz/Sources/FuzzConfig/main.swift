import FuzzSupport
import KioskConfig

/// Any bytes as a config file. Parsing and validation must either return a configuration or
/// throw `ConfigErrors` with at least one located diagnostic; anything else (a trap, another
/// error type, a hang, a leak) is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = "/fuzz/config.toml"
    do {
        _ = try ConfigLoader.parse(fuzzText(data, size), file: file)
    } catch let e as ConfigErrors {
        precondition(!e.diagnostics.isEmpty, "ConfigErrors without a diagnostic")
        for d in e.diagnostics {
            precondition(d.file == file && d.line >= 0 && d.column >= 0 && !d.message.isEmpty, "badly located diagnostic: \(d)")
        }
    } catch {
        preconditionFailure("ConfigLoader.parse threw something other than ConfigErrors: \(error)")
    }
    return 0
}

@_cdecl("FuzzConfig_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzConfig)
}
