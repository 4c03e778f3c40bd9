import Foundation

/// `[items]`, `[[item]]` with its `action`, and `[actions]`.
enum ItemsSchema {
    typealias Key = KeySpec<KioskConfiguration>

    static var folder: TableSpec<KioskConfiguration> {
        TableSpec(name: "items", doc: """
            Items from a folder: every image in it becomes an item (and every clip — mp4, m4v, mov, mkv, webm — when `extensions` lists it: a video item), sorted by file name (case does not \
            matter, numbers in names sort as numbers), after the `[[item]]` tables. The id is \
            `file:` and the file name (`file:03-harbour_at-dusk.jpg`); the title is the name without \
            its extension, `_` and `-` read as spaces, and without a leading number used for ordering \
            ("harbour at dusk"). Hidden files and subfolders are skipped.
            """, prototype: KioskConfiguration(), keys: [
                .path("directory", \.itemsDirectory.directory, .directory, "The folder.", defaultText: "none", example: "media/"),
                Key(name: "extensions", type: .strings, doc: "File name extensions taken from the folder (case does not matter).",
                    defaultOf: { ValueFormat.strings($0.itemsDirectory.extensions) }, example: "[\"jpg\", \"png\"]",
                    apply: { c, v in
                        c.itemsDirectory.extensions = v.strings.map { $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
                    }),
            ])
    }

    static var item: TableSpec<ItemConfig> {
        var keys: [KeySpec<ItemConfig>] = [
            .string("id", \.id, "Names the item in events and for `[idle] home_item`; unique.", example: "\"dawn\"")
                .withDefault("`item1`, `item2`… by position"),
            LanguagesSchema.text("title", \.title, "The title on the card and in the title overlay.", example: "\"Mountain Dawn\""),
            LanguagesSchema.text("subtitle", \.subtitle, "A second line of text.", defaultText: "none", example: "\"First light on the ridge\""),
            LanguagesSchema.text("description", \.description, """
                What the picture or clip shows, in words (alt text): not drawn; spoken after the title \
                and subtitle while the carousel rests on the item, when speech is on (`[accessibility] speech`).
                """, defaultText: "none", example: "\"Snow on a ridge, lit orange by the rising sun\""),
            .path("image", \.image, .picture, "PNG, JPEG, SVG or WebP picture, relative to the config file's folder.", defaultText: "none",
                  example: "media/01-mountain-dawn.jpg"),
            .path("video", \.video, .video, """
                A video clip (H.264, H.265, VP9, AV1… in MP4, MKV, WebM: whatever this machine's FFmpeg \
                decodes; `kiosk-carousel --version` lists it), relative to the config file's folder. The \
                card shows its poster; while the carousel rests on the item the card plays the clip \
                (`[video]`), muted unless `audio = true`.
                """, defaultText: "none", example: "media/harbour.mp4"),
            .path("poster", \.poster, .picture, "The picture shown on a video item's card before and between plays (PNG, JPEG, SVG, WebP).",
                  defaultText: "the clip's first frame", example: "media/harbour.jpg"),
            .bool("loop", \.loop, "A video item's card plays its clip over and over; false: once, then it keeps the last frame.",
                  example: "false"),
            .bool("audio", \.audio, "A video item's clip plays its sound (on its card and full screen), in sync with its frames, through `[audio] device`; false: muted.",
                  example: "true"),
        ]
        keys += ThemeSchema.styleKeys.map { $0.lifted(\ItemConfig.style).withDefault("`[theme.card]`'s") }
        return TableSpec(name: "item", doc: """
            One item of the carousel, in file order. Besides the keys below, any `[theme.card]` key \
            overrides the card style for this item alone.
            """, prototype: ItemConfig(id: "", title: ""), keys: keys, children: [
                .nested(action, form: .inline, get: { ActionDraft($0.action) }, set: { item, draft, _, _ in item.action = draft.action }),
            ], finish: checkVideo)
    }

    /// An item shows a picture or a clip; `poster`, `audio` and `play` need the clip.
    static func checkVideo(_ item: inout ItemConfig) -> [TableProblem] {
        var problems: [TableProblem] = []
        if item.video != nil && item.image != nil {
            problems.append(TableProblem("image", "an item shows an image or a video, not both; a video's still picture is 'poster'"))
        }
        if item.poster != nil && item.video == nil {
            problems.append(TableProblem("poster", "'poster' is the still of a video item; this item has no 'video' (for a picture, use 'image')"))
        }
        if item.audio && item.video == nil {
            problems.append(TableProblem("audio", "'audio' plays the sound of the item's clip; this item has no 'video'"))
        }
        if case .play = item.action, item.video == nil {
            problems.append(TableProblem(path: [.key("action"), .key("play")], "'play' needs the item's 'video' = \"…\""))
        }
        return problems
    }

    static func storeItems(_ config: inout KioskConfiguration, _ items: [(ItemConfig, ConfigPath)], _ decoder: ConfigDecoder) {
        decoder.reportRepeats(items.map { ($0.0.id, $0.1) }, at: "id") { id, first in
            "item id \(ValueFormat.quoted(id)) is already used by [[item]] #\(first + 1); ids must be unique"
        }
        config.items = items.map { item, path in
            var item = item
            LanguagesSchema.resolveTexts(&item, at: path, languages: config.languages, decoder: decoder)
            return item
        }
    }

    /// What `action = { … }` says, before it becomes an `ItemAction`.
    struct ActionDraft {
        var exec: [String]?
        var mode: ItemAction.ExecMode?
        var timeout: Double?
        var cwd: String?
        var env: [String: String]?
        var emit: String?
        var play: ItemAction.PlayMode?

        init(_ action: ItemAction = .none) {
            switch action {
            case .none: break
            case .exec(let argv, let mode, let timeout, let cwd, let env):
                exec = argv; self.mode = mode; self.timeout = timeout; self.cwd = cwd; self.env = env
            case .emit(let s): emit = s
            case .play(let m): play = m
            }
        }

        /// How many of exec, emit and play are set.
        var kinds: [String] { [("exec", exec != nil), ("emit", emit != nil), ("play", play != nil)].filter(\.1).map(\.0) }

        /// `.none` unless exactly one of exec, emit and play is set.
        var action: ItemAction {
            guard kinds.count == 1 else { return .none }
            if let exec { return .exec(argv: exec, mode: mode ?? .foreground, timeout: timeout, cwd: cwd, env: env ?? [:]) }
            if let emit { return .emit(emit) }
            if let play { return .play(play) }
            return .none
        }
    }

    static var action: TableSpec<ActionDraft> {
        TableSpec(name: "action", doc: """
            What selecting the item does, besides writing a `selected` event: `{ exec = [...] }` runs a \
            program (argv as given, no shell, environment from `[actions]` and its own `env`), `{ emit = "..." }` only \
            sends an event for another system, `{ play = "fullscreen" }` plays the item's video on the \
            whole screen and comes back to the carousel where it was. Written inline: `action = { exec = ["/usr/bin/mpv", "film.mp4"], timeout = 600 }`.
            """, prototype: ActionDraft(), keys: [
                KeySpec(name: "exec", type: .command,
                        doc: "Program and arguments. A program written with a `/` is a path (relative to the config file's folder) and must be executable; without one it is looked up in `PATH`.",
                        defaultOf: { _ in nil }, example: "[\"/usr/bin/chromium\", \"--kiosk\", \"https://example.org\"]",
                        apply: { $0.exec = $1.strings }),
                KeySpec(name: "mode", type: .choice(ItemAction.ExecMode.allCases.map(\.rawValue)),
                        doc: "`foreground` hands the screen and input to the program until it exits; `background` keeps the carousel running.",
                        defaultOf: { _ in "\"foreground\"" }, example: "\"background\"",
                        apply: { $0.mode = ItemAction.ExecMode(rawValue: $1.string) }),
                KeySpec(name: "timeout", type: .number(.aboveUpTo(0, 604_800)),
                        doc: "Seconds after which a program still running is ended (SIGTERM, then SIGKILL).",
                        defaultOf: { _ in "none" }, example: "600", apply: { $0.timeout = $1.number }),
                KeySpec(name: "cwd", type: .directory, doc: "Working directory of the program.",
                        defaultOf: { _ in "`[actions] working_directory`" }, example: "\"/srv/kiosk\"", apply: { $0.cwd = $1.string }),
                KeySpec(name: "env", type: .environment,
                        doc: "Environment variables for this program only, set over `[actions.env]` (a variable set to `\"\"` is removed; docs/actions.md).",
                        defaultOf: { _ in "none" }, example: "{ LANG = \"de_DE.UTF-8\" }", apply: { $0.env = $1.environment }),
                KeySpec(name: "emit", type: .string(allowEmpty: false), doc: "The string sent in an `emitted` event.",
                        defaultOf: { _ in nil }, example: "\"open-door\"", apply: { $0.emit = $1.string }),
                KeySpec(name: "play", type: .choice(ItemAction.PlayMode.allCases.map(\.rawValue)),
                        doc: "Plays the item's `video`: `fullscreen` fills the screen (letterboxed, following the display's rotation) until the clip ends or a touch, a key or the knob's button ends it.",
                        defaultOf: { _ in nil }, example: "\"fullscreen\"", apply: { $0.play = ItemAction.PlayMode(rawValue: $1.string) }),
            ], finish: { draft in
                let kinds = draft.kinds
                if kinds.isEmpty { return [TableProblem(nil, "an action needs exec = [\"/path/to/program\", …], emit = \"…\" or play = \"fullscreen\"")] }
                if kinds.count > 1 { return [TableProblem(kinds[1], "an action takes one of exec, emit and play, not " + kinds.joined(separator: " and "))] }
                guard draft.exec == nil else { return [] }
                let execOnly: [(String, Bool)] = [("mode", draft.mode != nil), ("timeout", draft.timeout != nil), ("cwd", draft.cwd != nil),
                                                  ("env", draft.env != nil)]
                return execOnly.filter(\.1).map { (key: String, _) in TableProblem(key, "'\(key)' applies only to exec actions") }
            })
    }

    static var actions: TableSpec<KioskConfiguration> {
        TableSpec(name: "actions", doc: "What every program an `exec` action starts gets.", prototype: KioskConfiguration(), keys: [
            .bool("inherit_environment", \.actions.inheritEnvironment, "Pass the kiosk's own environment on (then `[actions.env]` on top).",
                  example: "false"),
            .path("working_directory", \.actions.workingDirectory, .directory, "Working directory of launched programs.",
                  defaultText: "the kiosk's own", example: "/srv/kiosk"),
            .number("leave_hold", \.actions.leaveHold, .closed(0, 60),
                    "Holding the home key (`KEY_HOME`, and keys `[input.keymap]` binds to \"home\") this many seconds ends a foreground program (SIGTERM, SIGKILL 5 s later) and brings the carousel back; the program gets the key too. 0: only the program's own exit or `timeout` ends it.",
                    example: "5"),
        ], children: [
            .map("env", doc: "Environment variables set for launched programs.", keyDoc: "variable name", valueType: .string(allowEmpty: true),
                 example: [("LANG", "\"en_GB.UTF-8\""), ("MPV_HOME", "\"/etc/mpv\"")],
                 checkKey: EnvironmentName.problem,
                 apply: { c, k, v in c.actions.env[k] = v.string }),
        ])
    }
}
