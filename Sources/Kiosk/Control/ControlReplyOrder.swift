/// The replies one control client is owed, kept in the order its lines arrived.
///
/// A line the server refuses is answered by the server itself, a command by the loop later:
/// without this, `state` followed by a bad `scroll_to` in one write was answered bad-first.
/// Every line that gets a reply takes the next place; a reply leaves only when every place
/// before it has been answered, so a client reads its replies in the order it sent the lines
/// (docs/control.md, "Replies"). Events are not replies and are not held back.
struct ControlReplyOrder {
    /// The places not yet sent, oldest first: nil while the loop has not answered.
    private var waiting: [String?] = []
    /// The number of `waiting[0]`.
    private var firstPlace = 0
    /// Bytes of the answered replies held behind an unanswered one.
    private(set) var heldBytes = 0

    /// True while a place is still unanswered or a reply waits behind one.
    var isWaiting: Bool { !waiting.isEmpty }

    /// Takes the next place for a command handed to the loop; `answer(_:with:)` fills it.
    mutating func reserve() -> Int {
        waiting.append(nil)
        return firstPlace + waiting.count - 1
    }

    /// A reply known now (a refused line): returns the lines that may be sent, in order
    /// (nothing while an earlier command is still with the loop).
    mutating func answerNow(_ line: String) -> [String] {
        if waiting.isEmpty { return [line] }
        waiting.append(line)
        heldBytes += line.utf8.count + 1
        return []
    }

    /// The loop's reply for place `place`: returns the lines that may be sent now, in order.
    /// A place already answered, or never taken, is ignored.
    mutating func answer(_ place: Int, with line: String) -> [String] {
        let k = place - firstPlace
        guard k >= 0, k < waiting.count, waiting[k] == nil else { return [] }
        waiting[k] = line
        heldBytes += line.utf8.count + 1
        let ready = waiting.prefix { $0 != nil }.map { $0! }
        waiting.removeFirst(ready.count)
        firstPlace += ready.count
        heldBytes -= ready.reduce(0) { $0 + $1.utf8.count + 1 }
        return ready
    }
}
