/// `[idle]`, `[cards]` and `[control]`: how the running kiosk behaves around the carousel.
enum RuntimeSchema {
    typealias Key = KeySpec<KioskConfiguration>

    static var idle: TableSpec<KioskConfiguration> {
        TableSpec(name: "idle", doc: """
            What happens when nobody touches the kiosk, in seconds since the last input. 0 turns a \
            stage off. The first touch after blanking only wakes the screen.
            """, prototype: KioskConfiguration(), keys: [
                .number("attract_after", \.idle.attractAfter, .closed(0, 1_000_000), "Start attract mode (the carousel turns on its own).",
                        example: "60"),
                .number("attract_interval", \.idle.attractInterval, .aboveUpTo(0, 3600),
                        "In attract mode, seconds between steps to the next item (less than 0.5 is taken as 0.5, with a warning: faster could flash more than three times a second, docs/accessibility.md).",
                        example: "4"),
                .number("attract_autoscroll", \.idle.attractAutoscroll, .closed(-100, 100),
                        "In attract mode, turn smoothly at this many items per second instead of stepping; 0: step. Faster than 3 either way is turned at 3, with a warning (no flashing, docs/accessibility.md).", example: "0.2"),
                .number("home_after", \.idle.homeAfter, .closed(0, 1_000_000), "Scroll back to home_item.", example: "120"),
                Key(name: "home_item", type: .itemReference, doc: "The item home_after returns to: its index (0 is the first) or its id.",
                    defaultOf: { String($0.idle.homeItem) }, example: "\"welcome\"", apply: { c, v in
                        switch v {
                        case .string(let id): c.idle.homeItemID = id
                        default: c.idle.homeItem = v.int; c.idle.homeItemID = nil
                        }
                    }),
                .number("blank_after", \.idle.blankAfter, .closed(0, 1_000_000), "Turn the screen off: DPMS through the DRM connector (FBIOBLANK on fbdev), or a black frame where that is not supported.", example: "600"),
                .number("warn_before", \.idle.warnBefore, .closed(0, 3600),
                        "Show \"Do you need more time?\" (and say it, when speech is on) this long before home_after or blank_after acts, but never in the first half of the wait; any touch or key then gives more time (the timers start again). 0: no warning (EN 301 549 11.2.2.1 asks for one, with at least 20 s to answer; docs/accessibility.md).",
                        example: "30"),
            ])
    }

    static var cards: TableSpec<KioskConfiguration> {
        TableSpec(name: "cards", doc: "How item faces are rendered: off the main loop, into a cache bounded in bytes.",
                  prototype: KioskConfiguration(), keys: [
                    .int("cache_mb", \.cards.cacheMB, .closed(1, 65536), "Most memory card textures (with their mip levels) may hold, in MiB.",
                         example: "128"),
                    .int("workers", \.cards.workers, .closed(1, 16), "Threads that render cards.", example: "2"),
                    .number("max_image_megapixels", \.cards.maxImageMegapixels, .aboveUpTo(0, 1000),
                            "Images larger than this many million pixels are refused before decoding (the card shows a \"!\"). A PNG, which is decoded at full size, at most 32 million whatever this says; any image at most 30000 pixels a side.",
                            example: "40"),
                    .number("fade_duration", \.cards.fadeDuration, .closed(0, 10), "Seconds a placeholder face fades into the finished card.",
                            example: "0.25"),
                  ])
    }

    static var control: TableSpec<KioskConfiguration> {
        TableSpec(name: "control", doc: "The control socket: JSON lines both ways (events out, commands in). Created 0600, owner only.",
                  prototype: KioskConfiguration(), keys: [
                    .path("socket", \.control.socket, .socketPath, "Path of the Unix socket.", defaultText: "none (no socket)",
                          example: "/run/kiosk-carousel/control.sock"),
                  ])
    }
}
