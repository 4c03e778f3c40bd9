import CTOML
import CTOMLShell
import Glibc

/// TOML text → `TOMLNode`, through toml++'s C bridge (CTOML, part of the TOMLKit package) and
/// not through TOMLKit's Swift types, which never free what the bridge hands out: TOMLKit 0.6.0's
/// `TOMLTable.keys` leaves the `malloc`ed key list and a `strdup` per key, `.string`/`.int`/
/// `.double`/`.bool` leave a `malloc` or `strdup` per value read, `TOMLTable(string:)` its error
/// struct, and no `TOMLTable` frees its document. Reading the bridge directly, each of those
/// copies is freed here as soon as it is read, and the document is cleared once copied and its
/// empty shell released (`CTOMLShell`: the bridge has no function that deletes it). Measured,
/// with the command, in docs/reliability.md (bug 13).
extension TOMLNode {
    /// Parses `text`; a syntax error is thrown as toml++ gives it (its text and the place).
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLNode {
        let error = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { error.deallocate() }
        guard let table = text.withCString({ tableCreateFromString($0, error) }) else {
            let e = error.pointee
            defer { free(UnsafeMutableRawPointer(mutating: e.description)) }
            throw TOMLSyntaxError(message: String(cString: e.description), line: Int(e.source.begin.line),
                                  column: Int(e.source.begin.column))
        }
        defer {
            tableClear(table)
            ctoml_shell_release_cleared_table(UnsafeMutableRawPointer(table))
        }
        return TOMLNode(table: table)
    }

    /// Copies a toml++ table; a key that cannot be looked up again (one holding `\0`, which the
    /// bridge's C strings cut short) is dropped.
    private init(table: OpaquePointer) {
        let count = tableSize(table)
        let keys = tableGetKeys(table)
        defer {
            for i in 0..<count { free(UnsafeMutableRawPointer(mutating: keys[i])) }
            free(UnsafeMutableRawPointer(mutating: keys))
        }
        var entries: [(key: String, value: TOMLNode)] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            if let node = tableGetNode(table, keys[i]) { entries.append((String(cString: keys[i]), TOMLNode(node: node))) }
        }
        self = .table(entries)
    }

    /// Copies one toml++ node, freeing the bridge's copy of a scalar once read.
    private init(node: OpaquePointer) {
        /// The value behind a `malloc`ed pointer the bridge returned, freed.
        func take<T>(_ pointer: UnsafePointer<T>?, _ fallback: T) -> T {
            guard let pointer else { return fallback }
            defer { free(UnsafeMutableRawPointer(mutating: pointer)) }
            return pointer.pointee
        }
        /// A `strdup`ed C string the bridge returned, copied and freed.
        func takeString(_ pointer: UnsafePointer<CChar>?) -> String {
            guard let pointer else { return "" }
            defer { free(UnsafeMutableRawPointer(mutating: pointer)) }
            return String(cString: pointer)
        }
        switch nodeType(node) {
        case .table:
            self = nodeAsTable(node).map { TOMLNode(table: $0) } ?? .table([])
        case .array:
            guard let array = nodeAsArray(node) else { self = .array([]); return }
            self = .array((0..<arraySize(array)).map { TOMLNode(node: arrayGetNode(array, Int64($0))) })
        case .string: self = .string(takeString(nodeAsString(node)))
        case .integer: self = .integer(Int(take(nodeAsInt(node), 0)))
        case .floatingPoint: self = .float(take(nodeAsDouble(node), 0))
        case .boolean: self = .bool(take(nodeAsBool(node), false))
        case .date:
            self = .dateTime(nodeAsDate(node).map { takeString(cTOMLDateToTOML(take($0, CTOMLDate()))) } ?? "")
        case .timeType:
            self = .dateTime(nodeAsTime(node).map { takeString(cTOMLTimeToTOML(take($0, CTOMLTime()))) } ?? "")
        case .dateTime:
            guard let pointer = nodeAsDateTime(node) else { self = .dateTime(""); return }
            // Its time offset, when it has one, was made with `new`: 2 bytes left, and no
            // config key takes a date.
            self = .dateTime(takeString(cTOMLDateTimeToTOML(take(pointer, CTOMLDateTime()))))
        }
    }
}

/// A TOML syntax error as toml++ reports it: its text and where it begins (1-based; 0 when not known).
struct TOMLSyntaxError: Error {
    var message: String
    var line: Int
    var column: Int
}
