import CarouselCore
import FuzzSupport
import Input

/// Any bytes as a `simulate --input` script. The reader must return events sorted by time with
/// finite numbers, or throw `InputScriptErrors` naming lines that exist in the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(data, size)
    do {
        let events = try InputScript.parse(text, file: "fuzz.jsonl")
        var last = -Double.infinity
        for e in events {
            precondition(e.time.isFinite && e.time >= last, "events out of order or not finite: \(e)")
            last = e.time
            // What `record` writes must read back as the same event (a touch_down with the
            // touch_cancel a script needs after it).
            var lines = [InputScript.line(for: e)]
            if case .touchDown(let slot, _, _) = e.event {
                lines.append(InputScript.line(for: TimedInputEvent(time: e.time, event: .touchCancel(slot: slot))))
            }
            let again = try InputScript.parse(lines.joined(separator: "\n"), file: "again.jsonl")
            precondition(again.count == lines.count, "line(for:) of \(e) did not read back")
        }
    } catch let e as InputScriptErrors {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        for problem in e.errors { precondition(problem.line >= 1 && problem.line <= lines, "error on a line that does not exist: \(problem)") }
    } catch {
        preconditionFailure("InputScript.parse threw \(error)")
    }
    return 0
}

@_cdecl("FuzzInputScript_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzInputScript)
}
