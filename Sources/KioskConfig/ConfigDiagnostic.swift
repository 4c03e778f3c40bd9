/// One problem in a configuration file, located as `FILE:LINE:COLUMN`.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 when the problem has no place (the file cannot be read).
    public var line: Int
    public var column: Int
    public var message: String
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// A configuration that did not validate: every problem found, in file order.
public struct ConfigErrors: Error, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]
    public init(_ diagnostics: [ConfigDiagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
