/// `[display]`: which screen, which mode, how frames are made.
enum DisplaySchema {
    typealias Key = KeySpec<KioskConfiguration>

    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "display", doc: """
            The screen: the backend that owns it, the device, connector and mode, the rotation, and \
            how frames are buffered and rendered. `run --backend` overrides `backend`.
            """, prototype: KioskConfiguration(), keys: keys)
    }

    static let keys: [Key] = [
        .choice("backend", \.display.backend,
                "`drm` (KMS, the default on a kiosk), `fbdev` (`/dev/fbN`, boards without KMS), `headless` (no screen: the frames stay in memory; `run --shot SECONDS=FILE.png` and the control socket's `screenshot` write them as PNG files); `auto` tries them in that order. `simulate` always draws headless, at its `--size` (default: `headless_size`).",
                example: .drm),
        .path("device", \.display.device, .path, "The DRM (`/dev/dri/cardN`) or framebuffer (`/dev/fbN`) device.",
              defaultText: "the first usable one", example: "/dev/dri/card0"),
        .string("connector", \.display.connector, "DRM connector name as the kernel names it.", defaultText: "the first connected",
                example: "\"HDMI-A-1\""),
        Key(name: "mode", type: .displayMode, doc: "Display mode; one the connector does not offer is an error listing those it does.",
            defaultOf: { $0.display.mode.map(ValueFormat.quoted) ?? "the connector's preferred mode" },
            example: "\"1920x1080@60\"", apply: { $0.display.mode = $1.string }),
        .intChoice("rotation", \.display.rotation, [0, 90, 180, 270],
                   "Clockwise rotation in degrees, done in software; touch input is rotated to match.", example: "90"),
        .intChoice("buffers", \.display.buffers, [2, 3], "Dumb buffers to cycle through. One flip is in flight at a time, so 3 does not let drawing run ahead of the screen; it costs memory (on a GPU with little video memory, buffer moves at every flip: docs/latency.md).",
                   example: "3"),
        Key(name: "render_scale", type: .numberOrAuto(.closed(0.5, 1)),
            doc: "Draw frames at this fraction of the screen's size and let the scan-out copy enlarge them (exact pixel doubling at 0.5, bilinear otherwise), for 4K and other big panels the CPU cannot fill at full rate. The layout, touch positions and `[carousel]` sizes stay in screen pixels; cards and text are rasterized for the smaller size. `\"auto\"`: full size until the frames of a drag miss the refresh interval, then 0.5 until frames fit again with room to spare (switching only between gestures; docs/display.md \"4K\").",
            defaultOf: { $0.display.renderScale.description }, example: "0.5",
            apply: { c, v in
                if case .string = v { c.display.renderScale = .auto } else { c.display.renderScale = .fixed(v.number) }
            }),
        .int("render_threads", \.display.renderThreads, .closed(1, 64), "Threads that draw a frame in horizontal bands.",
             defaultText: "the number of cores, at most 4", example: "2"),
        Key(name: "headless_size", type: .integers(count: 2, .closed(1, 16384)), doc: "Frame size `[width, height]` of the headless backend, and what `simulate` draws and `layout` lays out without `--size`.",
            defaultOf: { "[\($0.display.headlessSize.width), \($0.display.headlessSize.height)]" },
            example: "[1920, 1080]", apply: { c, v in
                let n = v.numbers
                if n.count == 2 { c.display.headlessSize = (Int(n[0]), Int(n[1])) }
            }),
        .int("pixel_shift", \.display.pixelShift, .closed(0, 16),
             "Burn-in care for OLED and other panels that keep a static picture: the whole scene (cards, title, page dots) moves by up to this many pixels each way, one pixel at a time along a path that visits every offset of the (2N+1)² square equally often; the background stays put. 0: off (docs/display.md).",
             example: "4"),
        .number("pixel_shift_interval", \.display.pixelShiftInterval, .closed(1, 86400),
                "Seconds between two one-pixel steps of `pixel_shift`: one frame is drawn per step, none in between. The whole path takes `(2 × pixel_shift + 1)²` steps (600 s and `pixel_shift = 4`: 13.5 hours).",
                example: "300"),
        .choice("power", \.display.power,
                "What a blank (`[idle] blank_after`, a `[[schedule]]` closing) switches off. `\"dpms\"`: the display's own power control (DPMS on the connector, FBIOBLANK on fbdev; a black frame where there is none). `\"cec\"`: the TV over HDMI-CEC — `<Standby>` on the blank, `<Image View On>` and `<Active Source>` on waking — with a black frame on the output (for TVs that ignore DPMS). `\"both\"`: DPMS and CEC. A TV that does not answer is one log line (docs/cec.md).",
                example: .both),
        .bool("cec_on_start", \.display.cecOnStart,
              "Turn the TV on over HDMI-CEC when the kiosk starts (`<Image View On>`, `<Active Source>`), whatever `power` is.",
              example: "true"),
        .path("cec_device", \.display.cecDevice, .path,
              "The HDMI-CEC adapter (`/dev/cecN`) for `power = \"cec\"`/`\"both\"` and `cec_on_start`.",
              defaultText: "the first `/dev/cecN` of an HDMI source (a physical address other than 0.0.0.0)", example: "/dev/cec0"),
    ]
}
