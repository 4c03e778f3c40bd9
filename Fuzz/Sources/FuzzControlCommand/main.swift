import FuzzSupport
import Kiosk

/// Any bytes as one control-socket line. The parser must answer with a checked command or an
/// error (never trap), and a command it accepts must carry only in-range arguments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    switch ControlCommandParser.parse(fuzzText(data, size)) {
    case .success(let line):
        switch line.command {
        case .scrollTo(_, let d), .scrollBy(_, let d):
            if let d { precondition(d.isFinite && d >= 0 && d <= ControlCommandParser.maxDuration, "duration \(d) accepted") }
        case .scrollBy(let items, _) where !items.isFinite:
            preconditionFailure("non-finite scroll_by accepted")
        case .screenshot(let path):
            precondition(!path.isEmpty && path.utf8.count <= ControlCommandParser.maxPathBytes, "path accepted: \(path.utf8.count) bytes")
        default:
            break
        }
    case .failure(let e):
        precondition(!e.message.isEmpty, "an error without a message")
    }
    return 0
}

@_cdecl("FuzzControlCommand_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzControlCommand)
}
