import Foundation

/// Reads `config.toml` into a validated `KioskConfiguration`, reporting every problem at once.
public enum ConfigLoader {
    /// The system-wide config, used when neither `--config` nor the environment names one.
    public static let systemPath = "/etc/kiosk-carousel/config.toml"
    /// The environment variable naming the config file.
    public static let environmentVariable = "KIOSK_CAROUSEL_CONFIG"
    /// Larger files are refused (a config is a few kilobytes; this guards against a wrong file).
    public static let maxFileSize = 16 << 20

    /// Where the config is looked for: `--config`, then `$KIOSK_CAROUSEL_CONFIG`, then
    /// `/etc/kiosk-carousel/config.toml`. Empty values count as absent.
    /// `missingFileHint(explicit:environment:)` says how to name another one.
    public static func resolvePath(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment[environmentVariable], !env.isEmpty { return env }
        return systemPath
    }

    /// What to add to "no such file" for the path `resolvePath` chose: nil when `explicit`
    /// (`--config FILE`) named it (the person typed it: the path and the reason say it all);
    /// else how to give another file than the environment's or the default place.
    public static func missingFileHint(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit, !explicit.isEmpty { return nil }
        if let env = environment[environmentVariable], !env.isEmpty {
            return "named by $\(environmentVariable): set it to the config file, or give --config FILE"
        }
        return "the default place: give --config FILE or set $\(environmentVariable)"
    }

    /// Loads and validates a file. Throws `ConfigErrors` listing every problem. With `[usb]
    /// import` on, the content a USB stick brought replaces this file's content tables
    /// (`ImportedContent`); content that no longer loads is left out, its problems kept in
    /// `importedContentProblems`. `importedContent: false` reads the file alone. `media`: what is
    /// read of the pictures and clips it names (`MediaChecks`; the program passes
    /// `MediaFileCheck.kiosk`). `missingFileHint`: how to name another file, added to the "no
    /// such file" problem; only the command knows how the path was chosen (`--config`, the
    /// environment, the default place, an argument), so the loader adds none by itself.
    /// `parses`: where a reading of the same text finds its parse (`run` reads its file twice).
    public static func load(path: String, importedContent: Bool = true, media: MediaChecks = .none,
                            missingFileHint: String? = nil, parses: ParsedTextCache? = nil) throws -> KioskConfiguration {
        let config = try loadFile(path: path, media: media, missingFileHint: missingFileHint, parses: parses).config
        return importedContent ? ImportedContent.applyCurrent(to: config, media: media) : config
    }

    /// `load` for the running kiosk: when the file has problems but USB content is current,
    /// that content over what can be read of the file (`ImportedContent.rescue`, the problems in
    /// `machineProblems`). `check-config` uses `load`: the file's problems are still problems.
    public static func loadForRun(path: String, media: MediaChecks = .none, missingFileHint: String? = nil,
                                  parses: ParsedTextCache? = nil) throws -> KioskConfiguration {
        do {
            return try load(path: path, media: media, missingFileHint: missingFileHint, parses: parses)
        } catch let e as ConfigErrors {
            if let rescued = ImportedContent.rescue(machinePath: path, problems: e.diagnostics, media: media) { return rescued }
            throw e
        }
    }

    /// Loads and validates one file, alone; also gives the top-level keys it has.
    static func loadFile(path: String, media: MediaChecks = .none, missingFileHint: String? = nil,
                         parses: ParsedTextCache? = nil) throws -> (config: KioskConfiguration, tables: Set<String>) {
        try parseWithTables(readText(path: path, missingFileHint: missingFileHint), file: path, media: media, parses: parses)
    }

    /// The file's text, or why it cannot be read (as a diagnostic without a place).
    static func readText(path: String, missingFileHint: String? = nil) throws -> String {
        let data: Data
        switch read(path, missingFileHint: missingFileHint) {
        case .success(let d): data = d
        case .failure(let e): throw e
        }
        switch decodeText(data, file: path) {
        case .success(let t): return t
        case .failure(let e): throw e
        }
    }

    /// Parses and validates TOML text; relative paths resolve against `file`'s folder.
    public static func parse(_ text: String, file: String, media: MediaChecks = .none) throws -> KioskConfiguration {
        try parseWithTables(text, file: file, media: media).config
    }

    /// `parse`, also giving the document's top-level keys. `confinedTo`: every picture, clip and
    /// items folder must be inside that folder (a USB stick's content, `ImportedContent.load`).
    /// `parses`: the parse of this same text is taken from there if it holds it, and kept there.
    static func parseWithTables(_ text: String, file: String, media: MediaChecks = .none, confinedTo: String? = nil,
                                parses: ParsedTextCache? = nil) throws -> (config: KioskConfiguration, tables: Set<String>) {
        // A NUL is looked for in the UTF-8 bytes (the scalars' walk cost 0.4 M instructions for
        // the example file), its place in the scalars only when there is one.
        if text.utf8.contains(0), let nul = text.unicodeScalars.firstIndex(of: "\0") {
            let p = position(of: nul, in: text)
            throw ConfigErrors([ConfigDiagnostic(file: file, line: p.line, column: p.column, message: "the file contains a NUL byte; is it a text file?")])
        }
        let index: TOMLPositionIndex, document: TOMLNode
        if let parsed = parses?.parse(of: text) {
            (index, document) = parsed
        } else {
            index = TOMLPositionIndex(text: text)
            if let hazard = index.parserHazard {
                // toml++ would assert here: report an earlier syntax error if the text before this
                // statement has one, else this one, without handing the statement to toml++.
                var before = String.UnicodeScalarView()
                before.append(contentsOf: text.unicodeScalars.prefix(hazard.statementStartOffset))
                _ = try parseTOML(String(before), file: file)
                throw ConfigErrors([ConfigDiagnostic(file: file, line: hazard.position.line, column: hazard.position.column,
                                                     message: "TOML syntax error: \(hazard.message)")])
            }
            document = try parseTOML(text, file: file)
            parses?.store(text, index: index, document: document)
        }
        let folder = (file as NSString).deletingLastPathComponent
        let absoluteFolder = PathResolver.resolve(folder.isEmpty ? "." : folder, folder: "")
        let decoder = ConfigDecoder(file: file, folder: absoluteFolder, index: index)
        var config = KioskConfiguration()
        decoder.decode(ConfigSchema.root, entries: document.tableEntries ?? [], at: [], into: &config)
        // Pictures, clips and fonts are checked also when other keys have problems: every problem at once.
        let pass = MediaPass(checks: media, confinedTo: confinedTo)
        for p in pass.problems(MediaPass.references(keyed: decoder.mediaReferences, config: config)) {
            decoder.report(at: p.place, key: false, p.message)
        }
        for p in FontPass(check: media.font).problems(decoder.fontReferences) {
            decoder.report(at: p.place, key: false, p.message)
        }
        let diagnostics = decoder.diagnostics
        guard diagnostics.isEmpty else { throw ConfigErrors(diagnostics) }
        config.file = file
        // The decoder's (a text without a translation) and the whole file's (ConfigWarnings), in
        // file order.
        config.warnings = (decoder.warnings + ConfigWarnings.of(config, file: file, index: index))
            .sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        config = FlashLimits.clamped(config)
        return (config, Set((document.tableEntries ?? []).map(\.key)))
    }

    /// What can be read of `[display]` in a file that does not validate (or the defaults when
    /// the file cannot be read or parsed at all): keys with problems keep their defaults. The
    /// problem card of `run` is shown on the display the file names, in its rotation.
    public static func readableDisplaySettings(path: String) -> DisplaySettings {
        readableTables(["display"], path: path).display
    }

    /// The defaults with what can be read of `tables` (top-level table names) in a file that
    /// does not validate: `run` opens the display and the control socket the file names while
    /// its problems are shown.
    public static func readableTables(_ tables: Set<String>, path: String) -> KioskConfiguration {
        guard case .success(let data) = read(path), case .success(let text) = decodeText(data, file: path),
              !text.unicodeScalars.contains("\0") else { return KioskConfiguration() }
        let index = TOMLPositionIndex(text: text)
        guard index.parserHazard == nil, let document = try? parseTOML(text, file: path) else { return KioskConfiguration() }
        let folder = (path as NSString).deletingLastPathComponent
        let decoder = ConfigDecoder(file: path, folder: PathResolver.resolve(folder.isEmpty ? "." : folder, folder: ""),
                                    index: index)
        var config = KioskConfiguration()
        let entries = (document.tableEntries ?? []).filter { tables.contains($0.key) }
        decoder.decode(ConfigSchema.root, entries: entries, at: [], into: &config)
        return config
    }

    /// toml++'s parse copied into plain Swift data (`TOMLNode.parse`, which frees what TOMLKit's
    /// Swift side leaks), its error turned into a diagnostic at the place it gives.
    static func parseTOML(_ text: String, file: String) throws -> TOMLNode {
        do {
            return try TOMLNode.parse(text)
        } catch {
            throw ConfigErrors([ConfigDiagnostic(file: file, line: max(1, error.line), column: max(1, error.column),
                                                 message: "TOML syntax error: \(oneLine(error.message))")])
        }
    }

    /// TOMLKit's message on one line: it quotes what it saw raw (`saw 'tru` + a newline), so
    /// line breaks, tabs and other control characters are written as escapes (`'tru\n'`), as it
    /// already does for some of its messages. One diagnostic is one line.
    static func oneLine(_ message: String) -> String {
        let escapes: [Unicode.Scalar: String] = ["\n": "\\n", "\r": "\\r", "\t": "\\t"]
        return message.unicodeScalars.map { u in
            escapes[u] ?? (u.properties.generalCategory == .control ? "\\u{\(String(u.value, radix: 16))}" : String(u))
        }.joined()
    }

    // MARK: Reading the file

    /// The file's bytes, or why they cannot be read; `missingFileHint` in brackets after "no such file".
    static func read(_ path: String, missingFileHint: String? = nil) -> Result<Data, ConfigErrors> {
        func fail(_ message: String) -> Result<Data, ConfigErrors> {
            .failure(ConfigErrors([ConfigDiagnostic(file: path, line: 0, column: 0, message: message)]))
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            return fail("no such file" + (missingFileHint.map { " (\($0))" } ?? ""))
        }
        if isDir.boolValue { return fail("is a folder, not a config file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { return fail("cannot be read (check its permissions)") }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
        } catch {
            return fail("cannot be read: \(error.localizedDescription)")
        }
        if data.count > maxFileSize { return fail("is larger than \(maxFileSize >> 20) MiB; is it the right file?") }
        return .success(data)
    }

    /// UTF-8 text (a byte-order mark is allowed), or the place of the first byte that is not.
    static func decodeText(_ data: Data, file: String) -> Result<String, ConfigErrors> {
        if let s = String(data: data, encoding: .utf8) { return .success(s) }
        // Find the first invalid byte for the message: decode the valid prefix to count lines.
        let bytes = [UInt8](data)
        var iterator = bytes.makeIterator()
        var utf8 = Unicode.UTF8()
        var valid = 0
        var prefix = String.UnicodeScalarView()
        loop: while true {
            switch utf8.decode(&iterator) {
            case .scalarValue(let s): prefix.append(s); valid += String(s).utf8.count
            case .emptyInput, .error: break loop
            }
        }
        let text = String(prefix)
        let p = position(of: text.unicodeScalars.endIndex, in: text)
        return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: p.line, column: p.column,
                                                       message: "byte \(valid + 1) is not UTF-8; save the file as UTF-8 text")]))
    }

    /// Line and column (in Unicode scalars) of a place in `text`.
    static func position(of index: String.UnicodeScalarView.Index, in text: String) -> SourcePosition {
        var line = 1, column = 1
        for s in text.unicodeScalars[..<index] {
            if s == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return SourcePosition(line: line, column: column)
    }
}
