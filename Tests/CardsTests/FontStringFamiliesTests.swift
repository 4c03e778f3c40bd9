import CCardLibs
import XCTest
@testable import Cards

/// The config's font check reads a font string without pango before pango is open
/// (`FontStringFamilies`) and looks its families up in fontconfig's list
/// (`FontCatalog.listThroughFontconfig`). Both are checked here against pango itself: the
/// families read are pango's wherever the reading takes the form, and the list is pango's
/// font map's; where the reading leaves a form to pango, a font it finds is one pango finds.
final class FontStringFamiliesTests: XCTestCase {
    /// pango's own families of `font`, split as `FontCatalog.missingFamilies` splits them.
    private func pangoFamilies(_ font: String) -> [String] {
        let desc = pango_font_description_from_string(font)
        defer { pango_font_description_free(desc) }
        guard let family = pango_font_description_get_family(desc) else { return [] }
        return String(cString: family).split(separator: ",").map { String($0).trimmingSpace() }.filter { !$0.isEmpty }
    }

    /// Every keyword, as written, lower case, upper case and without its hyphens; plain sizes;
    /// lists; spaces and commas where people put them.
    private var taken: [String] {
        var fonts: [String] = []
        for (_, words) in FontStringFamilies.keywords {
            for word in words + ["Normal"] {
                for form in [word, word.lowercased(), word.replacingOccurrences(of: "-", with: ""), word.uppercased()] {
                    fonts += ["DejaVu Sans \(form)", "Noto Sans, DejaVu Sans \(form) 12", "Sans \(form),", "\(form)", "A \(form) Bold 9.5px"]
                }
            }
        }
        fonts += ["", " ", ",", "DejaVu Sans", "  DejaVu   Sans  ", "DejaVu Sans 12", "DejaVu Sans 12px", "DejaVu Sans .5",
                  "DejaVu Sans 5.", "DejaVu Sans 1000000", "DejaVu Sans 1000001", "Noto Sans,,DejaVu Sans", "Noto Sans , DejaVu Sans ,", "A,B,C Bold",
                  "Bold", "12", "Sans,12", "Sans, 12", "Font 12 Bold", "Semi Bold Sans", "Sans Semi_Bold", "Sans semi-bold",
                  "Sans Bold-", "Sans Boldx", "Sans weight=", "Sans weight=x", "Ünicode Sans Bold 12",
                  "DejaVu Sans\tBold\n12"]
        return fonts
    }

    /// Variations, which pango 1.50 and 1.56 read differently, are pango's to read.
    func testAStringWithVariationsIsLeftToPango() {
        for font in ["DejaVu Sans Bold Italic 10 @wght=200", "Sans,@wght=200", "Sans @wght=200", "@", "Sans@x"] {
            XCTAssertNil(FontStringFamilies.families(in: font), font)
        }
        XCTAssertNil(FontCheck.problem(font: "DejaVu Sans @wght=200"), "pango finds it")
    }

    func testTheFamiliesAreReadAsPangoReadsThem() {
        for font in taken {
            XCTAssertEqual(FontStringFamilies.families(in: font), pangoFamilies(font), "\"\(font)\"")
        }
    }

    /// Forms left to pango (signs, exponents, `field=`, other variants pango may know): the
    /// reading keeps them in the last family's name, so the families it reads are pango's but
    /// for the last, which holds pango's last and more.
    private var leftToPango: [String] {
        var fonts = ["DejaVu Sans +12", "DejaVu Sans 1e1", "DejaVu Sans weight=+600", "DejaVu Sans Petite-Caps",
                     "DejaVu Sans All-Small-Caps 12", "Noto Sans, DejaVu Sans 0x10", "DejaVu Sans inf", "Sans Weight=600"]
        for (field, words) in FontStringFamilies.keywords {
            fonts += ["DejaVu Sans \(field)=\(words[0])", "Noto Sans, DejaVu Sans \(field)=\(words[0]) 12", "Sans \(field)=600",
                      "Sans \(field)=0 10", "A \(field)=\(words[0]) Bold 9.5px"]
        }
        return fonts
    }

    func testFormsLeftToPangoStayInTheLastFamily() throws {
        for font in leftToPango {
            let mine = try XCTUnwrap(FontStringFamilies.families(in: font)), pango = pangoFamilies(font)
            XCTAssertEqual(mine.dropLast(), pango.dropLast(), "\"\(font)\"")
            if let last = mine.last, let pangoLast = pango.last {
                XCTAssertTrue(last.hasPrefix(pangoLast), "\"\(font)\": \(mine) against pango's \(pango)")
            }
        }
    }

    /// fontconfig's list, as pango's font map lists the families (the installed fonts of this
    /// machine: DejaVu at least, `make deps`).
    func testFontconfigListsTheFamiliesPangoLists() throws {
        FontCatalog.listThroughFontconfig()
        let listed = try XCTUnwrap(FontCatalog.familiesListedByFontconfig())
        XCTAssertEqual(listed, FontCatalog.installed())
        XCTAssertTrue(listed.contains("dejavu sans"))
    }

    /// What decides the check's answer: a font found without pango is one pango finds.
    func testAFontFoundWithoutPangoIsOnePangoFinds() throws {
        FontCatalog.listThroughFontconfig()
        let listed = try XCTUnwrap(FontCatalog.familiesListedByFontconfig())
        for font in taken + leftToPango + ["No Such Family Bold", "No Such, Family"] {
            guard let named = FontStringFamilies.families(in: font) else { continue }
            let foundWithoutPango = named.isEmpty || named.contains { listed.contains($0.lowercased()) }
            if foundWithoutPango {
                XCTAssertTrue(FontCatalog.missingFamilies(in: font).isEmpty, "\"\(font)\"")
            }
        }
    }
}
