import CarouselCore

/// `[input]`, `[input.rotary]`, `[input.dial]` and `[input.keymap]`.
enum InputSchema {
    typealias Key = KeySpec<KioskConfiguration>

    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "input", doc: """
            Touchscreens, pointers and keyboards through libinput: found by udev on a seat (hotplug \
            works), or a fixed list of devices.
            """, prototype: KioskConfiguration(), keys: [
                .string("seat", \.input.seat, "The udev seat whose devices are used.", example: "\"seat0\""),
                Key(name: "devices", type: .paths, doc: "Fixed device paths (libinput's path backend) instead of udev; empty: udev on `seat`.",
                    defaultOf: { ValueFormat.strings($0.input.devices) }, example: "[\"/dev/input/event2\"]",
                    apply: { $0.input.devices = $1.strings }),
                Key(name: "calibration", type: .numbers(count: 6, .closed(-1000, 1000)),
                    doc: "libinput's touch calibration matrix `[a, b, c, d, e, f]` (x' = a·x + b·y + c, y' = d·x + e·y + f, in 0…1 units).",
                    defaultOf: { $0.input.calibration.map(ValueFormat.numbers) ?? "none (udev's LIBINPUT_CALIBRATION_MATRIX applies)" },
                    example: "[1, 0, 0, 0, 1, 0]", apply: { $0.input.calibration = $1.numbers }),
                .number("bounce_keys", \.input.bounceKeys, .closed(0, 5),
                        "Bounce keys (EN 301 549 5.8): a press of the same key (or the knob's button) this many seconds or less after the last one is ignored, for a hand that strikes twice. 0: every press counts.",
                        example: "0.5"),
            ], children: [
                .section(rotary, onPresent: { $0.input.rotary = $0.input.rotary ?? RotarySettings() }),
                .section(volumeKnob, onPresent: { $0.input.volumeKnob = $0.input.volumeKnob ?? VolumeKnobSettings() }),
                .section(dial, onPresent: { $0.gestures.dial = $0.gestures.dial ?? InputSchema.dialPrototype }),
                keymap,
            ])
    }

    static var rotary: TableSpec<KioskConfiguration> {
        TableSpec(name: "rotary", doc: """
            A rotary encoder knob read with libevdev (libinput ignores bare encoders). Name the device by \
            path or by its kernel name; it may appear after start.
            """, prototype: withRotary, keys: [
                .path("device", \.input.rotaryOrDefault.device, .path, "Device path.", defaultText: "none",
                      example: "/dev/input/by-path/platform-rotary@4-event"),
                .string("name", \.input.rotaryOrDefault.name, "Device name as the kernel reports it (used when `device` is not given).", defaultText: "none",
                        example: "\"rotary@4\""),
                .choice("axis", \.input.rotaryOrDefault.axis,
                        "The axis that turns: relative `REL_*` axes, or `ABS_X` with a range that wraps (Raspberry Pi overlay).",
                        example: .relX),
                .int("detents_per_item", \.gestures.detentsPerItem, .closed(1, 100), "Detents that move the carousel one item.", example: "2"),
                .bool("invert", \.input.rotaryOrDefault.invert, "Reverse the direction.", example: "true"),
                .number("acceleration", \.gestures.rotaryAcceleration, .closed(0, 10),
                        "Extra items per detent when the knob turns fast; 0 is off.", example: "0.5"),
                .number("fast_interval", \.gestures.rotaryFastInterval, .aboveUpTo(0, 1),
                        "A detent at most this many seconds after the previous one counts as fast.", example: "0.04"),
                Key(name: "select_key", type: .keyCode, doc: "The key code the knob's push button sends; it selects the centred item.",
                    defaultOf: { ValueFormat.quoted($0.input.rotaryOrDefault.selectKey) }, example: "\"KEY_ENTER\"",
                    apply: { $0.input.rotaryOrDefault.selectKey = $1.string }),
            ], finish: { config in
                let r = config.input.rotaryOrDefault
                if r.device == nil && r.name == nil { return [TableProblem(nil, "[input.rotary] needs 'device' or 'name' to find the knob")] }
                return []
            })
    }

    static var volumeKnob: TableSpec<KioskConfiguration> {
        TableSpec(name: "volume_knob", doc: """
            A second knob that sets the volume of speech and sound (EN 301 549 5.1.3.11; docs/accessibility.md): \
            clockwise is louder, each step a tenth, spoken when speech is on. Read with libevdev and found \
            as `[input.rotary]`'s knob is; it may appear after start.
            """, prototype: withVolumeKnob, keys: [
                .path("device", \.input.volumeKnobOrDefault.device, .path, "Device path.", defaultText: "none",
                      example: "/dev/input/by-path/platform-rotary@17-event"),
                .string("name", \.input.volumeKnobOrDefault.name, "Device name as the kernel reports it (used when `device` is not given).",
                        defaultText: "none", example: "\"rotary@17\""),
                .choice("axis", \.input.volumeKnobOrDefault.axis,
                        "The axis that turns: relative `REL_*` axes, or `ABS_X` with a range that wraps (Raspberry Pi overlay).",
                        example: .relX),
                .bool("invert", \.input.volumeKnobOrDefault.invert, "Reverse the direction.", example: "true"),
                .int("detents_per_step", \.input.volumeKnobOrDefault.detentsPerStep, .closed(1, 100),
                     "Detents that change the volume one step (a tenth).", example: "2"),
            ], finish: { config in
                let k = config.input.volumeKnobOrDefault
                if k.device == nil && k.name == nil { return [TableProblem(nil, "[input.volume_knob] needs 'device' or 'name' to find the knob")] }
                return []
            })
    }

    static let dialPrototype = DialOptions(center: .zero, innerRadius: 0, outerRadius: 0, itemsPerTurn: 8)

    static var dial: TableSpec<KioskConfiguration> {
        var k = [KeySpec<KioskConfiguration>]()
        k.append(.point("center", \.gestures.dialOrDefault.center, CarouselSchema.coordinate, "Centre `[x, y]` of the ring in screen pixels.",
                        example: "[1600, 540]"))
        k[0].required = true
        k[0].defaultOf = { _ in nil }
        var outer = KeySpec<KioskConfiguration>.number("outer_radius", \.gestures.dialOrDefault.outerRadius, .aboveUpTo(0, 100_000),
                                                       "Outer radius in pixels.", example: "260")
        outer.required = true
        outer.defaultOf = { _ in nil }
        k.append(.number("inner_radius", \.gestures.dialOrDefault.innerRadius, .closed(0, 100_000),
                         "Inner radius in pixels: touches nearer the centre pan as usual.", example: "120"))
        k.append(outer)
        k.append(.number("items_per_turn", \.gestures.dialOrDefault.itemsPerTurn, .closed(-1000, 1000),
                         "Items one full clockwise turn moves forward (negative: counter-clockwise moves forward); not 0.", example: "12"))
        return TableSpec(name: "dial", doc: """
            An on-screen ring: a finger inside it turns the carousel by the angle it sweeps around the \
            centre (atan2, unwrapped across ±π); touches outside pan as usual. `[theme.dial]` styles it.
            """, prototype: withDial, keys: k, finish: { config in
                let d = config.gestures.dialOrDefault
                if d.itemsPerTurn == 0 { return [TableProblem("items_per_turn", "'items_per_turn' must not be 0")] }
                if d.outerRadius > 0 && d.innerRadius >= d.outerRadius {
                    return [TableProblem("inner_radius", "'inner_radius' (\(ValueFormat.number(d.innerRadius))) must be less than 'outer_radius' (\(ValueFormat.number(d.outerRadius)))")]
                }
                return []
            })
    }

    static var keymap: ChildSpec<KioskConfiguration> {
        .map("keymap", doc: """
            Extra keys: a Linux key code name bound to one of the kiosk's keys. Without it the arrows step, \
            Enter, keypad Enter, Space, Select and OK select, Escape and Back cancel, and Home goes home; \
            an entry for one of those keys replaces its binding.
            """,
             keyDoc: "`KEY_…` / `BTN_…` / code", valueType: .choice(KeyName.allCases.map(\.rawValue)),
             example: [("KEY_PAGEDOWN", "\"right\""), ("KEY_PAGEUP", "\"left\""), ("BTN_LEFT", "\"enter\"")],
             checkKey: { k in
                 KeyCodeName.isValid(k) ? nil : "'\(k)' is not a key code the kernel knows; write KEY_… or BTN_… as in linux/input-event-codes.h (e.g. KEY_SPACE) or a number up to 767"
                     + KeyCodeName.suggestion(for: k, quote: { $0 })
             },
             apply: { config, key, v in if let name = KeyName(rawValue: v.string) { config.input.keymap[key] = name } })
    }

    static var withRotary: KioskConfiguration { var c = KioskConfiguration(); c.input.rotary = RotarySettings(); return c }
    static var withVolumeKnob: KioskConfiguration { var c = KioskConfiguration(); c.input.volumeKnob = VolumeKnobSettings(); return c }
    static var withDial: KioskConfiguration { var c = KioskConfiguration(); c.gestures.dial = dialPrototype; return c }
}

extension InputSettings {
    /// The knob settings, created on first write (for the schema's key paths).
    var rotaryOrDefault: RotarySettings {
        get { rotary ?? RotarySettings() }
        set { rotary = newValue }
    }
}

extension InputSettings {
    /// The volume knob's settings, created on first write (for the schema's key paths).
    var volumeKnobOrDefault: VolumeKnobSettings {
        get { volumeKnob ?? VolumeKnobSettings() }
        set { volumeKnob = newValue }
    }
}

extension GestureOptions {
    /// The dial, created on first write (for the schema's key paths).
    var dialOrDefault: DialOptions {
        get { dial ?? InputSchema.dialPrototype }
        set { dial = newValue }
    }
}
