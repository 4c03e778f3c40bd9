import ArgumentParser

/// `SECONDS=PATH` options: `simulate --shot` and `--reload`, `run --shot`, `display-test --shot`.
enum TimedPath {
    /// Parses `SECONDS=PATH` (seconds finite, 0 or more; a path after the `=`); a `ValidationError`
    /// that shows `example` otherwise.
    static func parse(_ spec: String, option: String, example: String) throws -> (time: Double, path: String) {
        guard let eq = spec.firstIndex(of: "="), let t = Double(spec[..<eq]), t >= 0, t.isFinite,
              spec.index(after: eq) < spec.endIndex else {
            throw ValidationError("\(option) must look like \(example), not '\(spec)'")
        }
        return (t, String(spec[spec.index(after: eq)...]))
    }

    /// Refuses a shot the run would end before (it would never be written): the first such one,
    /// and the end to give instead.
    static func refuseAfterEnd(_ shots: [(time: Double, path: String)], end: Double, endOption: String,
                               option: String = "--shot") throws {
        guard let late = shots.max(by: { $0.time < $1.time }), late.time > end + 1e-9 else { return }
        throw ValidationError("\(option) \(format(late.time))=\(late.path) is after the end of the run (\(endOption) \(format(end))): "
                              + "give \(endOption) \(format(late.time)) or more")
    }

    /// Seconds as typed (`5`, not `5.0`).
    static func format(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e15 ? String(Int(t)) : String(t)
    }
}
