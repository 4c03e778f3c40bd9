/// The whole configuration schema: every section, key, type, default, range and doc text.
/// The loader, the validator, "did you mean" and `docs/configuration.md` all come from it.
enum ConfigSchema {
    /// The document root: its children are the sections, in the order they are decoded (later
    /// ones may use earlier ones: `[[item]]` starts from `[theme.card]`).
    static let root = TableSpec<KioskConfiguration>(
        name: "", doc: "", prototype: KioskConfiguration(), keys: [],
        children: [
            .section(DisplaySchema.section),
            .section(CarouselSchema.section),
            .section(InputSchema.section),
            .section(RuntimeSchema.idle),
            .section(ThemeSchema.section),
            .section(AccessibilitySchema.section),
            .section(RuntimeSchema.cards),
            .section(VideoSchema.section),
            .section(AudioSchema.section),
            .section(ItemsSchema.folder),
            // Before [[item]]: its texts per language are checked against these.
            .section(LanguagesSchema.section),
            .arrayOfTables(ItemsSchema.item,
                           make: { config, n in ItemConfig(id: "item\(n + 1)", title: "", style: config.theme.card) },
                           store: ItemsSchema.storeItems),
            .section(ItemsSchema.actions),
            .section(RuntimeSchema.control),
            .section(MetricsSchema.section),
            .section(USBSchema.section),
            .section(UpdateSchema.update),
            .section(UpdateSchema.content),
            .arrayOfTables(ScheduleSchema.window, make: { _, _ in ScheduleSchema.draft() }, store: ScheduleSchema.store),
            .section(ScheduleSchema.defaults),
        ],
        finish: finish)

    /// Every section of the reference, in schema order.
    static let reference: [ReferenceSection] = root.children.flatMap { $0.reference($0.name) }

    /// Key name → the sections that have it, for "'seat' belongs in [input]".
    static let keyHomes: [String: [String]] = {
        var homes: [String: [String]] = [:]
        for section in reference where section.form != .map {
            for row in section.rows { homes[row.key, default: []].append(section.title) }
        }
        return homes
    }()

    /// After every section: items from the folder, unique ids across both kinds, home_item.
    static func finish(_ config: inout KioskConfiguration) -> [TableProblem] {
        var problems: [TableProblem] = []
        if let folder = config.itemsDirectory.directory {
            do {
                let found = try ItemsDirectory.items(in: folder, extensions: config.itemsDirectory.extensions, style: config.theme.card)
                let taken = Set(config.items.map(\.id))
                for item in found where taken.contains(item.id) {
                    problems.append(TableProblem(path: [.key("items"), .key("directory")],
                                                 "the folder's file \(ValueFormat.quoted(item.id)) has the same id as an [[item]]; change that item's id"))
                }
                config.items += found.filter { !taken.contains($0.id) }
            } catch {
                problems.append(TableProblem(path: [.key("items"), .key("directory")], "\(error)"))
            }
        }
        if let id = config.idle.homeItemID {
            if let n = config.items.firstIndex(where: { $0.id == id }) {
                config.idle.homeItem = n
            } else {
                problems.append(TableProblem(path: [.key("idle"), .key("home_item")],
                                             "'home_item' names item \(ValueFormat.quoted(id)), but no item has that id"
                                                 + Suggestion.clause(for: id, in: config.items.map(\.id), quote: { "\"\($0)\"" })))
            }
            config.idle.homeItemID = nil
        } else if config.idle.homeItem >= max(1, config.items.count) {
            problems.append(TableProblem(path: [.key("idle"), .key("home_item")],
                                         "'home_item' is \(config.idle.homeItem), but there are only \(config.items.count) items (the first is 0)"))
        }
        problems += ScheduleSchema.checkItems(config)
        return problems
    }
}
