import Foundation
import XCTest
@testable import KioskConfig

/// Issue 27: a `font` naming a family that is not installed is a problem of the file, at the
/// value, wherever a font is named (`[theme.card]`, an `[[item]]`, `[theme.title_overlay]`).
final class FontConfigTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    /// A font check that knows one family (the program's is `Cards.FontCheck`, over fontconfig).
    func onlyDejaVu(_ asked: AskedPaths) -> MediaChecks {
        MediaChecks(font: { font in
            asked.add(font)
            return font == "DejaVu Sans" ? nil : "is not installed (fc-match would use \"DejaVu Sans\")"
        })
    }

    func testEveryFontKeyIsCheckedAtItsValueOnceForEachDistinctValue() throws {
        let asked = AskedPaths()
        let text = "[theme.card]\nfont = \"Foo Sans\"\n[theme.title_overlay]\nfont = \"Bar\"\n"
            + "[[item]]\ntitle = \"a\"\nfont = \"Foo Sans\"\n[[item]]\ntitle = \"b\"\nfont = \"DejaVu Sans\"\n"
        let file = fixture.write("config.toml", text)
        XCTAssertThrowsError(try ConfigLoader.load(path: file, media: onlyDejaVu(asked))) { error in
            XCTAssertEqual((error as? ConfigErrors)?.diagnostics.map(\.description), [
                "\(file):2:8: 'font' \"Foo Sans\" is not installed (fc-match would use \"DejaVu Sans\")",
                "\(file):4:8: 'font' \"Bar\" is not installed (fc-match would use \"DejaVu Sans\")",
                "\(file):7:8: 'font' \"Foo Sans\" is not installed (fc-match would use \"DejaVu Sans\")",
            ])
        }
        XCTAssertEqual(asked.paths.sorted(), ["Bar", "DejaVu Sans", "Foo Sans"], "each distinct font string once")
    }

    func testFontsAreCheckedAlsoWhenOtherKeysHaveProblems() {
        let file = fixture.write("config.toml", "[carousel]\nspead = 3\n[theme.card]\nfont = \"Foo\"\n")
        XCTAssertThrowsError(try ConfigLoader.load(path: file, media: onlyDejaVu(AskedPaths()))) { error in
            XCTAssertEqual((error as? ConfigErrors)?.diagnostics.map { "\($0.line):\($0.column)" }, ["2:1", "4:8"])
        }
    }

    func testWithoutAFontCheckFontsAreNotLookedUp() throws {
        XCTAssertEqual(try fixture.load("[theme.card]\nfont = \"Foo Sans\"\n").theme.card.font, "Foo Sans", "MediaChecks.none")
        XCTAssertEqual(fixture.report("[theme.card]\nfont = \"\"\n"), ["2:8: 'font' must not be empty"])
    }

    /// The reference says what a font key accepts, with the generic families.
    func testReferenceNamesTheFontRule() {
        let reference = ConfigReference.markdown()
        XCTAssertTrue(reference.contains("| `font` | string (font) |"), "type column")
        XCTAssertTrue(reference.contains("an installed family (`fc-list : family`) or a generic one (`\"sans-serif\"`, …; see Fonts above)"))
        XCTAssertTrue(reference.contains(FontFamilies.generic.map { "`\($0)`" }.joined(separator: ", ")), "the generic families listed")
    }

    func testNearestFamiliesAreTyposAndLongerNamesNearestFirst() {
        let installed = ["DejaVu Sans", "DejaVu Serif", "Noto Sans", "Noto Sans Arabic", "Noto Serif", "Liberation Mono"]
        XCTAssertEqual(Suggestion.nearest(to: "Noto Sanz", in: installed, count: 3), ["Noto Sans", "Noto Serif"])
        XCTAssertEqual(Suggestion.nearest(to: "Noto", in: installed, count: 3), ["Noto Sans", "Noto Serif", "Noto Sans Arabic"])
        XCTAssertEqual(Suggestion.nearest(to: "dejavu", in: installed, count: 2), ["DejaVu Sans", "DejaVu Serif"])
        XCTAssertEqual(Suggestion.nearest(to: "Comic", in: installed, count: 3), [])
    }
}
