/// How many refused lines of one control client are logged: the first `limit` in full, then
/// none, and one summary line when the client goes (`summary`). A client sending 20,000 bad
/// lines used to write a log line for each until it was dropped (issue 27).
struct RefusalLogBudget {
    let limit: Int
    /// Lines refused so far.
    private(set) var refused = 0

    init(limit: Int) { self.limit = limit }

    /// Counts one refusal; the text to log for it, or nil once the budget is spent. The last
    /// line logged says that further ones are only counted.
    mutating func logLine(_ reason: String, client: ControlClientID) -> String? {
        refused += 1
        guard refused <= limit else { return nil }
        let line = "control: \(client): refused a line: \(reason)"
        return refused == limit
            ? line + " (\(limit) refused lines logged: more from \(client) are counted, and logged as one line when it goes)"
            : line
    }

    /// The refusals that were not logged, as a clause for the client's last log line; nil when
    /// every one was logged.
    var summary: String? {
        let unlogged = refused - limit
        guard unlogged > 0 else { return nil }
        return "\(refused) lines refused, the last \(unlogged) not logged"
    }
}
