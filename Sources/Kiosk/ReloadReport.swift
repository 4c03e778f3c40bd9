import JSON
import KioskConfig

/// How a reload of the config file is reported: the `reloaded` event and the control socket's
/// `reload` reply carry the same fields. Adopted: `"ok":true`. Refused (the kiosk keeps what it
/// showed): `"ok":false`, `"error"` (the file and how many problems), `"problem_count"` and
/// `"problems"`, the problems as `check-config` prints them (`FILE:LINE:COLUMN: message`; LINE
/// and COLUMN are 0 when the problem has no place, such as a file that cannot be read).
enum ReloadReport {
    /// At most this many problems are listed (`problem_count` says how many there were): a
    /// garbled file can have thousands, and a control client is dropped past 256 KiB unread.
    static let listedProblems = 50

    /// The fields after `reply`/`event` (JSON values, ready for `EventLog`).
    static func fields(adopted: Bool, problems: [ConfigDiagnostic]) -> [(String, String)] {
        guard !adopted else { return [("ok", "true")] }
        let n = problems.count
        let file = problems.first.map { "\($0.file) was not adopted" } ?? "the config file was not adopted"
        let listed = problems.prefix(listedProblems).map { JSONString.quoted($0.description) }
        return [("ok", "false"),
                ("error", JSONString.quoted("\(file) (\(n) problem\(n == 1 ? "" : "s")): the kiosk keeps what it showed")),
                ("problem_count", String(n)), ("problems", "[" + listed.joined(separator: ",") + "]")]
    }
}
