import CCardLibs
import Foundation
import KioskConfig

/// Shaped text through pango (HarfBuzz shaping, bidi, fontconfig fallback for scripts the font
/// lacks): one block of text in a font, size, colour and alignment, wrapped to at most `lines`
/// lines with an ellipsis at the end of the last.
struct TextBlock {
    var text: String
    var font: String
    /// Pixel size (absolute, independent of DPI).
    var size: Double
    var color: ARGBColor
    var alignment: String
    var lines: Int
    var bold: Bool

    /// A laid-out block ready to draw on `context`, `width` pixels wide.
    func layout(on context: CairoContext, width: Double) -> TextLayout {
        TextLayout(block: self, on: context, width: width)
    }
}

/// A pango layout made for one cairo context.
final class TextLayout {
    let layout: OpaquePointer
    let block: TextBlock

    init(block: TextBlock, on context: CairoContext, width: Double) {
        self.block = block
        FontStartup.loadConfiguration()
        context.willDrawText()
        layout = FontLock.withLock { TextLayout.make(block, cr: context.cr, width: width) }
    }

    /// The pango layout for `block` on `cr` (call holding `FontLock`).
    private static func make(_ block: TextBlock, cr: OpaquePointer, width: Double) -> OpaquePointer {
        let layout: OpaquePointer = pango_cairo_create_layout(cr)
        let context = pango_layout_get_context(layout)
        // Deterministic glyphs whatever the machine's fontconfig says: greyscale anti-aliasing,
        // no hinting, unhinted metrics (cards are scaled and tilted anyway).
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_layout_context_changed(layout)

        let desc = pango_font_description_from_string(block.font)
        pango_font_description_set_absolute_size(desc, max(1, block.size) * Double(PANGO_SCALE))
        if block.bold, pango_font_description_get_weight(desc) == PANGO_WEIGHT_NORMAL {
            pango_font_description_set_weight(desc, PANGO_WEIGHT_BOLD)
        }
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        pango_layout_set_text(layout, block.text, -1)
        pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_height(layout, -Int32(max(1, block.lines)))
        pango_layout_set_alignment(layout, TextLayout.alignment(block.alignment))
        return layout
    }

    deinit { FontLock.withLock { g_object_unref(UnsafeMutableRawPointer(layout)) } }

    /// Size of the ink-independent logical box in pixels.
    var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        FontLock.withLock { pango_layout_get_pixel_size(layout, &w, &h) }
        return (Int(w), Int(h))
    }

    var lineCount: Int { FontLock.withLock { Int(pango_layout_get_line_count(layout)) } }
    var isEllipsized: Bool { FontLock.withLock { pango_layout_is_ellipsized(layout) != 0 } }

    /// Draws the block with its top-left at (x, y); `shadow` adds a soft dark copy under it
    /// for text over photos.
    func draw(on context: CairoContext, x: Double, y: Double, shadow: Bool) {
        FontLock.withLock { show(on: context, x: x, y: y, shadow: shadow) }
    }

    private func show(on context: CairoContext, x: Double, y: Double, shadow: Bool) {
        let cr = context.cr
        if shadow {
            cairo_save(cr)
            cairo_move_to(cr, x + 1, y + 1.5)
            context.setColor(0x9900_0000)
            pango_cairo_show_layout(cr, layout)
            cairo_restore(cr)
        }
        cairo_move_to(cr, x, y)
        context.setColor(block.color)
        pango_cairo_show_layout(cr, layout)
    }

    /// `left`/`start`, `center`, `right`/`end` (pango mirrors them for right-to-left text, so
    /// they mean start and end of the line's own direction).
    static func alignment(_ name: String) -> PangoAlignment {
        switch name.lowercased() {
        case "left", "start": return PANGO_ALIGN_LEFT
        case "right", "end": return PANGO_ALIGN_RIGHT
        default: return PANGO_ALIGN_CENTER
        }
    }
}

/// Which font families fontconfig knows (through pango), to refuse a font that does not exist
/// instead of silently drawing in another. Read once per process; `refresh()` re-reads.
enum FontCatalog {
    private static let lock = NSLock()
    /// Lowercased names (`installed()`) and the names as fontconfig spells them.
    private static var families: (lowercased: Set<String>, names: [String])?

    /// The families named by a pango font string (`"DejaVu Sans Bold"`, `"Noto Sans, Sans"`)
    /// that are not installed — empty when at least one named family is. Generic names
    /// (`FontFamilies.generic`: `Sans`, `Serif`, `Monospace`, …) always exist.
    static func missingFamilies(in font: String) -> [String] {
        missingFamilies(in: font, known: nil)
    }

    /// `missingFamilies(in:)` against `known` (lowercased, as `installed()` gives them); nil:
    /// against `installed()`, listing the families when they are not listed yet.
    static func missingFamilies(in font: String, known: Set<String>?) -> [String] {
        let desc = pango_font_description_from_string(font)
        defer { pango_font_description_free(desc) }
        guard let familyPtr = pango_font_description_get_family(desc) else { return [] }
        let named = String(cString: familyPtr).split(separator: ",").map { String($0).trimmingSpace() }.filter { !$0.isEmpty }
        guard !named.isEmpty else { return [] }
        let known = known ?? installed()
        let present = named.filter { known.contains($0.lowercased()) }
        return present.isEmpty ? named : []
    }

    /// The installed families and the generic ones, lowercased.
    static func installed() -> Set<String> { catalogue().lowercased }

    /// `installed()` when the families are listed already, nil when listing them is still to do
    /// (which calls pango's font map, under `FontLock`). Reading the list needs no `FontLock`.
    static func listedFamilies() -> Set<String>? {
        lock.lock()
        defer { lock.unlock() }
        return families?.lowercased
    }

    /// The installed families as fontconfig spells them, sorted (generic names not included).
    static func installedNames() -> [String] { catalogue().names }

    /// The families listed through fontconfig alone (`listThroughFontconfig`), lowercased, with
    /// the generic ones; nil until listed.
    private static var fontconfigFamilies: Set<String>?

    /// `fontconfigFamilies` once listed: for the font check before pango is open
    /// (`FontCheck`, with `FontStringFamilies`). Needs no `FontLock`.
    static func familiesListedByFontconfig() -> Set<String>? {
        lock.lock()
        defer { lock.unlock() }
        return fontconfigFamilies
    }

    /// `familiesListedByFontconfig()`, listing them first when they are not listed yet (the
    /// main thread's font check came before the fonts' thread listed them).
    static func familiesByFontconfig() -> Set<String>? {
        if let listed = familiesListedByFontconfig() { return listed }
        listThroughFontconfig()
        return familiesListedByFontconfig()
    }

    /// Lists the installed families as pango's font map lists them, through fontconfig alone
    /// (`run`'s fonts' thread, right after fontconfig's configuration is loaded and before
    /// cairo and pango are open): the first family name of each font file in a format pango
    /// draws (TrueType or CFF, as pango 1.50's `pango_fc_is_supported_font_format`), and the
    /// generic names. `FontStringFamiliesTests` checks that pango lists the same. Under
    /// `FontLock`; once.
    static func listThroughFontconfig() {
        guard FontStartup.loadConfiguration() else { return }
        let names: Set<String>? = FontLock.withLock {
            // Listed by the other thread while this one waited for the lock.
            if let listed = familiesListedByFontconfig() { return listed }
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            guard let objects = FcObjectSetCreate() else { return nil }
            defer { FcObjectSetDestroy(objects) }
            for object in [FC_FAMILY, FC_FONTFORMAT, FC_FILE] { _ = FcObjectSetAdd(objects, object) }
            guard let set = FcFontList(nil, pattern, objects) else { return nil }
            defer { FcFontSetDestroy(set) }
            var names = Set(FontFamilies.generic)
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?, format: UnsafeMutablePointer<FcChar8>?, family: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch,
                      FcPatternGetString(font, FC_FONTFORMAT, 0, &format) == FcResultMatch, let format,
                      FcPatternGetString(font, FC_FAMILY, 0, &family) == FcResultMatch, let family else { continue }
                let formatName = String(cString: format).lowercased()
                guard formatName == "truetype" || formatName == "cff" else { continue }
                names.insert(String(cString: family).lowercased())
            }
            return names
        }
        lock.lock()
        fontconfigFamilies = names
        lock.unlock()
    }

    private static func catalogue() -> (lowercased: Set<String>, names: [String]) {
        FontStartup.loadConfiguration()
        lock.lock()
        defer { lock.unlock() }
        if let families { return families }
        var names: [String] = []
        var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(pango_cairo_font_map_get_default(), &list, &count)
        if let list {
            for i in 0..<Int(count) {
                if let f = list[i], let name = pango_font_family_get_name(f) { names.append(String(cString: name)) }
            }
            g_free(list)
        }
        let result = (lowercased: Set(FontFamilies.generic + names.map { $0.lowercased() }), names: names.sorted())
        families = result
        return result
    }

    /// Forgets the catalogue (after fonts were installed).
    static func refresh() {
        lock.lock()
        families = nil
        fontconfigFamilies = nil
        lock.unlock()
    }
}

/// An item's title (bold unless the font names a weight, up to `titleLines` lines) above its
/// subtitle (up to `subtitleLines` lines), laid out for a width; drawn as one block.
struct TextStack {
    let layouts: [TextLayout]
    let gap: Double

    init(_ item: ItemConfig, on ctx: CairoContext, font: String, width: Double) {
        let style = item.style
        var layouts: [TextLayout] = []
        if width > 4, !item.title.isEmpty {
            layouts.append(TextBlock(text: item.title, font: font, size: style.titleSize, color: style.titleColor,
                                     alignment: style.textAlign, lines: max(1, style.titleLines), bold: true)
                .layout(on: ctx, width: width))
        }
        if width > 4, let sub = item.subtitle, !sub.isEmpty {
            layouts.append(TextBlock(text: sub, font: font, size: style.subtitleSize, color: style.subtitleColor,
                                     alignment: style.textAlign, lines: max(1, style.subtitleLines), bold: false)
                .layout(on: ctx, width: width))
        }
        self.layouts = layouts
        gap = (style.subtitleSize * 0.25).rounded()
    }

    var isEmpty: Bool { layouts.isEmpty }

    /// Height of the whole block in pixels.
    var height: Double {
        layouts.reduce(0.0) { $0 + Double($1.size.height) } + gap * Double(max(0, layouts.count - 1))
    }

    func draw(on ctx: CairoContext, x: Double, y: Double, shadow: Bool) {
        var y = y
        for l in layouts {
            l.draw(on: ctx, x: x, y: y, shadow: shadow)
            y += Double(l.size.height) + gap
        }
    }
}
