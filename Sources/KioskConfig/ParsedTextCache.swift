import Foundation

/// The last config text parsed, with its position index and its document. `run` reads its file
/// twice — before fontconfig is ready (to open the display and the input devices), then with
/// every check — and gives both readings one of these (`ConfigLoader.loadForRun(parses:)`), so
/// the second reading of the same bytes takes the parse from here instead of scanning and parsing
/// again (5 M instructions of the kiosk's start, docs/start-up.md). Keyed by the whole text, so an
/// edited file is parsed anew; one entry, replaced by each new text. Held by its caller only: no
/// reading elsewhere keeps a parse alive.
public final class ParsedTextCache: @unchecked Sendable {
    /// A text's parse: what `ConfigLoader.parseWithTables` makes before it decodes.
    struct Entry {
        var text: String
        var index: TOMLPositionIndex
        var document: TOMLNode
    }

    private let lock = NSLock()
    private var entry: Entry?

    public init() {}

    /// The parse of `text` if it is the last one stored.
    func parse(of text: String) -> (index: TOMLPositionIndex, document: TOMLNode)? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry, entry.text == text else { return nil }
        return (entry.index, entry.document)
    }

    /// Keeps `text`'s parse (only a text that parsed: one with problems is read again).
    func store(_ text: String, index: TOMLPositionIndex, document: TOMLNode) {
        lock.lock()
        entry = Entry(text: text, index: index, document: document)
        lock.unlock()
    }
}
