/// Walks a parsed document along the schema: checks every key, applies good values to the
/// model, and collects every problem with the place the position index gives it.
final class ConfigDecoder {
    let file: String
    /// The config file's folder: relative paths resolve against it.
    let folder: String
    let index: TOMLPositionIndex
    private var found: [(position: SourcePosition, order: Int, message: String)] = []
    /// What is worth saying but does not refuse the file (a text without a translation).
    private var warned: [(position: SourcePosition, order: Int, message: String)] = []
    /// Every picture and clip a key accepted names, for the load's media pass (`MediaPass`).
    private(set) var mediaReferences: [MediaReference] = []
    /// Every font string a `font` key accepted, with its place, for the load's font pass (`FontPass`).
    private(set) var fontReferences: [FontReference] = []

    init(file: String, folder: String, index: TOMLPositionIndex) {
        self.file = file; self.folder = folder; self.index = index
    }

    /// Every problem, in file order (problems at the same place keep the order they were found).
    var diagnostics: [ConfigDiagnostic] {
        found.sorted { ($0.position, $0.order) < ($1.position, $1.order) }
            .map { ConfigDiagnostic(file: file, line: $0.position.line, column: $0.position.column, message: $0.message) }
    }

    /// Every warning, in file order (check-config prints them as `FILE:LINE:COLUMN: warning: message`).
    var warnings: [ConfigDiagnostic] {
        warned.sorted { ($0.position, $0.order) < ($1.position, $1.order) }
            .map { ConfigDiagnostic(file: file, line: $0.position.line, column: $0.position.column, message: $0.message) }
    }

    /// A warning about the key (`key: true`) or the value at `path`: the file is still used.
    func warn(at path: ConfigPath, key: Bool, _ message: String) {
        warned.append((key ? index.keyPosition(path) : index.valuePosition(path), warned.count, message))
    }

    // MARK: Reporting

    func report(at position: SourcePosition, _ message: String) {
        found.append((position, found.count, message))
    }

    /// A problem with the key (`key: true`) or the value at `path`.
    func report(at path: ConfigPath, key: Bool, _ message: String) {
        report(at: key ? index.keyPosition(path) : index.valuePosition(path), message)
    }

    /// How a table is named in messages: `[carousel]`, `[[item]] #3`, `action in [[item]] #3`.
    static func describe(_ path: ConfigPath) -> String {
        var keys: [String] = []
        var element = ""
        for c in path {
            switch c {
            case .key(let k): keys.append(ConfigPathComponent.key(k).description)
            case .index(let i):
                element = "[[\(keys.joined(separator: "."))]] #\(i + 1)" + (element.isEmpty ? "" : " in \(element)")
                keys = []
            }
        }
        if element.isEmpty { return keys.isEmpty ? "the top level" : "[\(keys.joined(separator: "."))]" }
        return keys.isEmpty ? element : "'\(keys.joined(separator: "."))' in \(element)"
    }

    /// For the elements of an array of tables (their value of `key`, their path): reports each
    /// one whose value repeats an earlier element's, at its `key`; `message` gets the value and
    /// the index of the first element that has it.
    func reportRepeats<Value: Hashable>(_ elements: [(Value, ConfigPath)], at key: String, _ message: (Value, Int) -> String) {
        var first: [Value: Int] = [:]
        for (n, (value, path)) in elements.enumerated() {
            if let earlier = first[value] {
                report(at: path + [.key(key)], key: false, message(value, earlier))
            } else {
                first[value] = n
            }
        }
    }

    // MARK: Shapes

    /// The entries of a table, or nil (reported) when `node` is something else.
    func expectTable(_ node: TOMLNode, at path: ConfigPath, form: TableForm) -> [(key: String, value: TOMLNode)]? {
        if let entries = node.tableEntries { return entries }
        let name = path.dotted
        if case .array(let a) = node, !a.isEmpty, a.allSatisfy({ $0.tableEntries != nil }) {
            report(at: path, key: true, "'\(name)' must be a single table: write [\(name)], not [[\(name)]]")
        } else if form == .inline {
            report(at: path, key: false, "'\(path.lastKey ?? name)' must be a table such as { … }, not \(node.typeDescription)")
        } else {
            report(at: path, key: false, "'\(name)' must be a table ([\(name)]), not \(node.typeDescription)")
        }
        return nil
    }

    /// The elements of an array of tables (nil for an element that is not a table, reported),
    /// or nil when `node` is not an array at all.
    func expectArrayOfTables(_ node: TOMLNode, at path: ConfigPath) -> [[(key: String, value: TOMLNode)]?]? {
        let name = path.dotted
        guard let elements = node.arrayElements else {
            if node.tableEntries != nil {
                report(at: path, key: true, "'\(name)' is a list: write [[\(name)]] (two brackets) for each entry")
            } else {
                report(at: path, key: false, "'\(name)' must be a list of tables ([[\(name)]]), not \(node.typeDescription)")
            }
            return nil
        }
        return elements.enumerated().map { n, e in
            if let entries = e.tableEntries { return entries }
            report(at: path + [.index(n)], key: false, "entry \(n + 1) of '\(name)' must be a table, not \(e.typeDescription)")
            return nil
        }
    }

    // MARK: Values and tables

    /// Checks one value; reports and returns nil when it is refused.
    func checkValue(_ type: ValueType, _ node: TOMLNode, at path: ConfigPath) -> ConfigValue? {
        switch type.check(node, folder: folder) {
        case .success(let v):
            switch type {
            case .picture: mediaReferences.append(MediaReference(kind: .picture, path: v.string, written: node.string ?? "", place: path))
            case .video: mediaReferences.append(MediaReference(kind: .clip, path: v.string, written: node.string ?? "", place: path))
            case .font: fontReferences.append(FontReference(font: v.string, place: path))
            case .directory where path == MediaPass.itemsFolderKey:
                mediaReferences.append(MediaReference(kind: .folder, path: v.string, written: node.string ?? "", place: path))
            default: break
            }
            return v
        case .failure(let problem):
            let place = problem.element.map { path + [.index($0)] } ?? problem.entry.map { path + [.key($0)] } ?? path
            report(at: place, key: problem.atKey, "'\(path.lastKey ?? path.dotted)' \(problem.message)")
            return nil
        }
    }

    /// Decodes a table's `entries` (found at `path`) along `spec` into `target`.
    func decode<T>(_ spec: TableSpec<T>, entries: [(key: String, value: TOMLNode)], at path: ConfigPath, into target: inout T) {
        var present = Set<String>()
        var refused = false
        for (key, node) in entries {
            present.insert(key)
            let p = path + [.key(key)]
            if let k = spec.keys.first(where: { $0.name == key }) {
                if let v = checkValue(k.type, node, at: p) { k.apply(&target, v) } else { refused = true }
            } else if !spec.children.contains(where: { $0.name == key }) {
                reportUnknown(key, node, at: p, in: spec, tablePath: path)
            }
        }
        // Children in schema order: later sections may build on earlier ones ([[item]] on [theme]).
        for child in spec.children {
            guard let node = entries.first(where: { $0.key == child.name })?.value else { continue }
            child.decode(&target, node, path + [.key(child.name)], self)
        }
        for k in spec.keys where k.required && !present.contains(k.name) {
            report(at: path, key: true, "\(ConfigDecoder.describe(path)) needs '\(k.name)'")
            refused = true
        }
        // Checks across keys would only repeat a refused value's problem in other words.
        guard !refused else { return }
        for problem in spec.finish?(&target) ?? [] {
            if let rel = problem.path, index.contains(path + rel) {
                report(at: path + rel, key: false, problem.message)
            } else {
                report(at: path, key: true, problem.message)
            }
        }
    }

    private func reportUnknown<T>(_ key: String, _ node: TOMLNode, at path: ConfigPath, in spec: TableSpec<T>, tablePath: ConfigPath) {
        let isTable = node.tableEntries != nil || (node.arrayElements.map { !$0.isEmpty && $0.allSatisfy { $0.tableEntries != nil } } ?? false)
        let isSection = tablePath.isEmpty && isTable
        let shown = ConfigPathComponent.key(key).description
        var message = isSection ? "unknown section [\(shown)]"
            : tablePath.isEmpty ? "unknown key '\(shown)' at the top level" : "unknown key '\(shown)' in \(ConfigDecoder.describe(tablePath))"
        if let s = Suggestion.closest(to: key, in: spec.allNames) {
            let isChild = spec.children.contains { $0.name == s }
            message += isSection || isChild ? "; did you mean [\((tablePath.dotted.isEmpty ? "" : tablePath.dotted + ".") + s)]?" : "; did you mean '\(s)'?"
        } else if let homes = ConfigSchema.keyHomes[key], !homes.isEmpty {
            // Built on the first unknown key (from the whole reference: 7 M instructions, more
            // than the rest of a file's decoding), never for a file without one.
            message += "; '\(key)' belongs in " + homes.joined(separator: " or ")
        } else if isSection {
            message += "; sections are " + spec.children.map { $0.form == .arrayOfTables ? "[[\($0.name)]]" : "[\($0.name)]" }.joined(separator: ", ")
        }
        report(at: path, key: true, message)
    }
}
