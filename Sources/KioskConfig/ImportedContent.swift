import Foundation

/// The content a USB stick brought (docs/usb.md): the `config.toml` of a stick's
/// `kiosk-carousel/` folder, copied with its media into `[usb] content`. Its content tables
/// replace the same tables of the machine's config file; the machine keeps its own display,
/// input, control, metrics, actions and `[usb]`.
public enum ImportedContent {
    /// The folder on a stick that holds its content.
    public static let stickFolder = "kiosk-carousel"
    /// The content file in that folder (and in every copy of it).
    public static let configName = "config.toml"
    /// The link in `[usb] content` that names the copy in use.
    public static let currentLink = "current"
    /// The import's progress and result, written by `usb-import`, read by the running kiosk.
    public static let statusName = "status.json"

    /// The top-level tables a stick may have: what is shown and how it moves (`[carousel]` with
    /// its touch gesture keys). The others are the machine's (a stick must not change the
    /// screen's mode, the input devices and their knob or dial settings, who may use the control
    /// socket, or what programs inherit). Each is a section of the schema.
    public static let contentTables: Set<String> = [
        "carousel", "idle", "theme", "cards", "video", "items", "item", "schedule", "schedule_defaults", "languages",
    ]

    /// The tables that are the machine's own (every top-level table but `contentTables`).
    public static var machineTables: Set<String> {
        Set(ConfigSchema.root.children.map(\.name)).subtracting(contentTables)
    }

    /// The content file of the copy `current` names, resolved through the link (so every path
    /// in it is the copy's own: a later import is a new folder, never the same paths with new
    /// files); nil when nothing was imported.
    public static func currentFile(in content: String) -> String? {
        let link = (content as NSString).appendingPathComponent(currentLink)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        let folder = target.hasPrefix("/") ? target : (content as NSString).appendingPathComponent(target)
        let file = (PathResolver.standardized(folder) as NSString).appendingPathComponent(configName)
        return FileManager.default.fileExists(atPath: file) ? file : nil
    }

    /// Loads and checks a content file: the config rules, plus: only `contentTables`, every
    /// picture, clip and items folder inside the file's folder (what is copied), and no item that
    /// runs a program unless `allowExec`. Throws `ConfigErrors` with every problem, each at its
    /// key.
    public static func load(path: String, allowExec: Bool, media: MediaChecks = .none) throws -> (config: KioskConfiguration, tables: Set<String>) {
        // Read once: an unreadable file has that one problem.
        let text = try ConfigLoader.readText(path: path)
        var problems: [ConfigDiagnostic] = []
        let loaded: (config: KioskConfiguration, tables: Set<String>)?
        do {
            loaded = try ConfigLoader.parseWithTables(text, file: path, media: media,
                                                      confinedTo: PathResolver.resolve((path as NSString).deletingLastPathComponent, folder: ""))
        } catch let e as ConfigErrors {
            problems = e.diagnostics
            loaded = nil
        }
        let index = TOMLPositionIndex(text: text)
        // The document as written, also when it does not validate (every problem is said at once):
        // its tables, and its items that run programs. Not from a text toml++ would abort on (the
        // parse already said what is wrong).
        let parsable = index.parserHazard == nil && !text.unicodeScalars.contains("\0")
        let entries = parsable && (loaded == nil || !allowExec) ? (try? ConfigLoader.parseTOML(text, file: path))?.tableEntries ?? [] : []
        let tables = loaded?.tables ?? Set(entries.map(\.key))
        func at(_ keyPath: ConfigPath, _ message: String) -> ConfigDiagnostic {
            let p = index.keyPosition(keyPath)
            return ConfigDiagnostic(file: path, line: p.line, column: p.column, message: message)
        }
        for table in tables.intersection(machineTables).sorted() {
            problems.append(at([.key(table)], "[\(table)] is the machine's own setting, not content: a USB stick cannot change it (set it in the kiosk's config file)"))
        }
        if !allowExec {
            let items = entries.first { $0.key == "item" }?.value.arrayElements ?? []
            for (n, item) in items.enumerated() {
                guard let action = item.tableEntries?.first(where: { $0.key == "action" })?.value,
                      action.tableEntries?.contains(where: { $0.key == "exec" }) == true else { continue }
                let id = item.tableEntries?.first { $0.key == "id" }?.value.string ?? "item\(n + 1)"
                problems.append(at([.key("item"), .index(n), .key("action")],
                                   "item \(ValueFormat.quoted(id)) runs a program: items from a USB stick may not, unless the kiosk's config says [usb] allow_exec = true"))
            }
        }
        guard problems.isEmpty, let loaded else {
            throw ConfigErrors(problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return loaded
    }

    /// `machine` with the tables `content` has (from `tables`) taken from it instead. Throws
    /// `ConfigErrors` (at `contentFile`) when the result does not hold together: the machine's
    /// schedule or home item names items the content lacks.
    public static func overlay(_ content: KioskConfiguration, tables: Set<String>, on machine: KioskConfiguration,
                               contentFile: String) throws -> KioskConfiguration {
        var out = machine
        if tables.contains("carousel") {
            out.carousel = content.carousel
            // [carousel]'s gesture keys; the knob's and the dial's ([input]) stay the machine's.
            out.gestures.panSlop = content.gestures.panSlop
            out.gestures.ignorePerpendicularSwipes = content.gestures.ignorePerpendicularSwipes
            out.gestures.tapMaxMovement = content.gestures.tapMaxMovement
            out.gestures.tapMaxDuration = content.gestures.tapMaxDuration
            out.gestures.velocityWindow = content.gestures.velocityWindow
        }
        if tables.contains("idle") { out.idle = content.idle }
        if tables.contains("theme") { out.theme = content.theme }
        if tables.contains("cards") { out.cards = content.cards }
        if tables.contains("video") { out.video = content.video }
        let hasItems = tables.contains("items") || tables.contains("item")
        if hasItems {
            out.items = content.items
            out.itemsDirectory = content.itemsDirectory
        }
        if tables.contains("schedule") { out.schedule = content.schedule }
        if tables.contains("schedule_defaults") { out.scheduleDefaults = content.scheduleDefaults }
        if tables.contains("languages") { out.languages = content.languages }
        out.importedContent = contentFile
        var problems: [String] = []
        let ids = Set(out.items.map(\.id))
        if hasItems && !tables.contains("schedule") {
            for window in machine.schedule {
                for id in window.items ?? [] where !ids.contains(id) {
                    problems.append("the kiosk's [[schedule]] shows item \(ValueFormat.quoted(id)), which this content does not have: give it its own [[schedule]]")
                }
            }
        }
        if hasItems && !tables.contains("idle") && out.idle.homeItem >= max(1, out.items.count) {
            problems.append("the kiosk's [idle] home_item is item \(out.idle.homeItem), but this content has \(out.items.count) items: give it its own [idle]")
        }
        if !problems.isEmpty {
            throw ConfigErrors(problems.map { ConfigDiagnostic(file: contentFile, line: 0, column: 0, message: $0) })
        }
        return out
    }

    /// The machine's own file alone (no imported content), for the import: what can be read of
    /// its machine tables when it has problems (a stick can then bring content to a kiosk whose
    /// own file is broken), with those problems.
    public static func machineConfiguration(path: String) -> (config: KioskConfiguration, problems: [ConfigDiagnostic]) {
        do {
            return (try ConfigLoader.load(path: path, importedContent: false), [])
        } catch let e as ConfigErrors {
            var machine = ConfigLoader.readableTables(machineTables, path: path)
            machine.file = path
            return (machine, e.diagnostics)
        } catch {
            return (KioskConfiguration(), [ConfigDiagnostic(file: path, line: 0, column: 0, message: "\(error)")])
        }
    }

    /// What `run` shows when the machine's own file has problems but a USB stick's content is
    /// current: that content over what can be read of the machine's tables (so a stick brings up
    /// a kiosk whose file is broken). nil when `[usb] import` is off, nothing was imported, or
    /// the content does not load either. `machineProblems` holds the file's problems.
    public static func rescue(machinePath: String, problems: [ConfigDiagnostic], media: MediaChecks = .none) -> KioskConfiguration? {
        var machine = ConfigLoader.readableTables(machineTables, path: machinePath)
        machine.file = machinePath
        var out = applyCurrent(to: machine, media: media)
        guard out.importedContent != nil, !out.items.isEmpty else { return nil }
        out.machineProblems = problems
        return out
    }

    /// `machine` with the current imported content over it when `[usb] import` is on and a copy
    /// exists (or `[content] url` is set). Content that does not load (a file removed by hand, a newer program's rules) is
    /// left out: the machine's own tables are used and the problems kept in
    /// `importedContentProblems`, for the kiosk to log.
    public static func applyCurrent(to machine: KioskConfiguration, media: MediaChecks = .none) -> KioskConfiguration {
        guard machine.takesImportedContent, let file = currentFile(in: machine.usb.content) else { return machine }
        do {
            let content = try load(path: file, allowExec: machine.usb.allowExec, media: media)
            return try overlay(content.config, tables: content.tables, on: machine, contentFile: file)
        } catch let e as ConfigErrors {
            var out = machine
            out.importedContentProblems = e.diagnostics
            return out
        } catch {
            var out = machine
            out.importedContentProblems = [ConfigDiagnostic(file: file, line: 0, column: 0, message: "\(error)")]
            return out
        }
    }
}
