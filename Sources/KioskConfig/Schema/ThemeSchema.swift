/// `[theme]` and its tables: the screen, the default card style, the page indicator, the
/// title overlay, the dial ring.
enum ThemeSchema {
    typealias Key = KeySpec<KioskConfiguration>

    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "theme", doc: "The look of the screen behind the carousel. Colours are `\"#RRGGBB\"` or `\"#AARRGGBB\"` (alpha first).",
                  prototype: KioskConfiguration(), keys: [
                    .color("background", \.theme.background, "Screen colour (the top of the gradient when background_bottom is set).",
                           example: "#0B1020"),
                    .color("background_bottom", \.theme.backgroundBottom, "Bottom colour of a vertical gradient.",
                           defaultText: "\"#283440\"", example: "#1C2A44"),
                  ], children: [
                    .section(card),
                    .section(pageIndicator),
                    .section(titleOverlay),
                    .section(dial),
                  ])
    }

    /// The card style keys, shared by `[theme.card]` and every `[[item]]`.
    static let styleKeys: [KeySpec<CardStyle>] = [
        .color("background", \.background, "Card colour (the top of the gradient when background_bottom is set).", example: "#24324A"),
        .color("background_bottom", \.backgroundBottom, "Bottom colour of a vertical gradient.", defaultText: "none (flat)", example: "#141C2C"),
        .number("border_width", \.borderWidth, .closed(0, 100), "Border width in pixels; 0: none.", example: "2"),
        .color("border_color", \.borderColor, "Border colour.", example: "#40FFFFFF"),
        .number("corner_radius", \.cornerRadius, .closed(0, 1000), "Corner radius in pixels.", example: "18"),
        .bool("shadow", \.shadow, "A gradient from transparent to 90 % black over the card's lower part (conveyor-belt cards).",
              example: "true"),
        .number("shadow_height", \.shadowHeight, .closed(0, 1), "Fraction of the card's height the shadow covers.", example: "0.4"),
        .font("font", \.font, "Font family, as pango reads it: `\"DejaVu Sans Bold\"` names a weight, `\"Brand Sans, DejaVu Sans\"` a fallback (fontconfig falls back for other scripts). A family that is not installed is a problem of the file.",
              example: "\"DejaVu Sans\""),
        .number("title_size", \.titleSize, .aboveUpTo(0, 500), "Title size in pixels.", example: "30"),
        .color("title_color", \.titleColor, "Title colour.", example: "#FFFFFF"),
        .int("title_lines", \.titleLines, .closed(0, 20), "Lines the title may wrap to (ellipsis after); 0 hides it.", example: "2"),
        .number("subtitle_size", \.subtitleSize, .aboveUpTo(0, 500), "Subtitle size in pixels.", example: "18"),
        .color("subtitle_color", \.subtitleColor, "Subtitle colour.", example: "#B8C4D6"),
        .int("subtitle_lines", \.subtitleLines, .closed(0, 20), "Lines the subtitle may wrap to; 0 hides it.", example: "2"),
        .choice("text_align", \.textAlign, ["left", "center", "right"], "Text alignment (mirrored for right-to-left text).", example: "left"),
        .number("padding", \.padding, .closed(0, 1000), "Space between the card's edge and its text, in pixels.",
                defaultText: "6 % of the card's smaller side, at least 4", example: "20"),
        .choice("image_fit", \.imageFit, ["cover", "contain"], "`cover` fills the card (cropping), `contain` shows the whole image.",
                example: "contain"),
    ]

    static var card: TableSpec<KioskConfiguration> {
        TableSpec(name: "card", doc: "The default look of every card; each `[[item]]` may override any of these keys.",
                  prototype: KioskConfiguration(), keys: styleKeys.map { $0.lifted(\KioskConfiguration.theme.card) })
    }

    static var pageIndicator: TableSpec<KioskConfiguration> {
        TableSpec(name: "page_indicator", doc: "Dots, one per item, the current one highlighted.", prototype: KioskConfiguration(), keys: [
            .bool("show", \.theme.showPageIndicator, "Draw the dots (never for a single item).", example: "true"),
            .int("max_items", \.theme.pageIndicatorMaxItems, .closed(1, 10_000), "Hide the dots when there are more items than this.",
                 example: "20"),
            .color("color", \.theme.pageIndicator.color, "Colour of the other dots.", example: "#55FFFFFF"),
            .color("current_color", \.theme.pageIndicator.currentColor, "Colour of the current item's dot.", example: "#FFD166"),
            .number("dot_size", \.theme.pageIndicator.dotSize, .aboveUpTo(0, 200), "Dot diameter in pixels (the current dot is 1.3 times as large).",
                    example: "8"),
            .number("spacing", \.theme.pageIndicator.spacing, .closed(0, 500),
                    "Gap between dots in pixels (less when the row would be wider than 90 % of the screen).", example: "12"),
            .choice("position", \.theme.pageIndicator.position, "Screen edge the dots sit at.", example: .top),
            .number("margin", \.theme.pageIndicator.margin, .closed(0, 16384), "Distance from that edge to the dots' centre line, in pixels.",
                    example: "32"),
        ])
    }

    static var titleOverlay: TableSpec<KioskConfiguration> {
        TableSpec(name: "title_overlay", doc: "The focused item's title drawn over the carousel.", prototype: KioskConfiguration(), keys: [
            .bool("show", \.theme.showTitle, "Draw the title.", example: "true"),
            .font("font", \.theme.titleOverlay.font, "Font family, as `[theme.card]`'s `font` (also of the problem and message cards).",
                  example: "\"DejaVu Sans\""),
            .number("size", \.theme.titleOverlay.size, .aboveUpTo(0, 500), "Text size in pixels.", example: "36"),
            .color("color", \.theme.titleOverlay.color, "Text colour.", example: "#FFFFFF"),
            .color("background", \.theme.titleOverlay.background,
                   "A rounded plate just behind the text; fully transparent: none (the text gets a soft shadow instead).", example: "#66000000"),
            .choice("position", \.theme.titleOverlay.position, "Screen edge the title sits at.", example: .top),
            .number("margin", \.theme.titleOverlay.margin, .closed(0, 16384), "Distance from that edge to the title's near edge, in pixels.",
                    example: "48"),
        ])
    }

    static var dial: TableSpec<KioskConfiguration> {
        TableSpec(name: "dial", doc: "How the on-screen dial ring of `[input.dial]` is drawn.", prototype: KioskConfiguration(), keys: [
            .bool("show", \.theme.showDial, "Draw the ring (it works either way).", example: "true"),
            .color("color", \.theme.dialRing.color, "Colour of its two circles.", example: "#44FFFFFF"),
            .number("width", \.theme.dialRing.width, .closed(0, 100), "Line width in pixels.", example: "3"),
            .color("fill", \.theme.dialRing.fill, "Fill between the circles; fully transparent: none.", example: "#10FFFFFF"),
        ])
    }
}
