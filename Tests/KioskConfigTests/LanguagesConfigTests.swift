import Foundation
import TestSupport
import XCTest
@testable import KioskConfig

/// `[languages]` and item texts per language (issue 30): parsing, the default language's text
/// as the item's own, and check-config's warnings at the key's FILE:LINE.
final class LanguagesConfigTests: XCTestCase {
    let twoLanguages = """
        [languages]
        available = ["en", "de"]
        default = "en"

        """

    func testTextsPerLanguageAreKeptAndTheDefaultOneIsTheItemsOwn() throws {
        let fixture = ConfigFixture()
        let config = try fixture.load(twoLanguages + """
            [[item]]
            title = { en = "The Harbour", de = "Der Hafen" }
            subtitle = { de = "Boote", en = "Boats" }
            [[item]]
            title = "Museum"
            """)
        XCTAssertEqual(config.languages, LanguagesSettings(available: ["en", "de"], defaultLanguage: "en"))
        XCTAssertEqual(config.items[0].title, "The Harbour")
        XCTAssertEqual(config.items[0].subtitle, "Boats")
        XCTAssertEqual(config.items[0].translations, ["title": ["en": "The Harbour", "de": "Der Hafen"],
                                                      "subtitle": ["en": "Boats", "de": "Boote"]])
        XCTAssertEqual(config.items[1].title, "Museum")
        XCTAssertEqual(config.items[1].translations, [:])
        XCTAssertEqual(config.warnings, [])
        let german = config.localized(to: "de")
        XCTAssertEqual(german.items.map(\.title), ["Der Hafen", "Museum"])
        XCTAssertEqual(german.items[0].subtitle, "Boote")
        XCTAssertEqual(german.languages.shownLanguage, "de")
        XCTAssertEqual(german.localized(to: "en").items.map(\.title), ["The Harbour", "Museum"])
    }

    func testDefaultIsTheFirstAvailableWhenNotGiven() throws {
        let config = try ConfigFixture().load("[languages]\navailable = [\"de\", \"en\"]\n[[item]]\ntitle = { de = \"Hafen\", en = \"Harbour\" }\n")
        XCTAssertEqual(config.languages.defaultLanguage, "de")
        XCTAssertEqual(config.items[0].title, "Hafen")
        XCTAssertEqual(config.languages.next(after: "de"), "en")
        XCTAssertEqual(config.languages.next(after: "en"), "de")
    }

    func testWithoutLanguagesEverythingIsAsBefore() throws {
        let config = try ConfigFixture().load("[[item]]\ntitle = \"A\"\nsubtitle = \"B\"\n")
        XCTAssertEqual(config.languages, LanguagesSettings())
        XCTAssertFalse(config.languages.isMultilingual)
        XCTAssertEqual(config.languages.shownLanguage, "en")
        XCTAssertEqual(config.items[0].translations, [:])
        XCTAssertEqual(config.warnings, [])
    }

    /// A missing translation and a language `available` does not list are warnings at the
    /// key's place, saying what is shown instead; the file loads.
    func testMissingAndUnknownLanguagesAreWarningsAtTheirPlace() throws {
        let fixture = ConfigFixture()
        let config = try fixture.load("""
            [languages]
            available = ["en", "de", "fr"]

            [[item]]
            id = "harbour"
            title = { en = "The Harbour", de = "Der Hafen" }
            subtitle = { de = "Boote", fr = "Bateaux", it = "Barche" }
            """)
        XCTAssertEqual(config.warnings.map { "\($0.line):\($0.column): \($0.message)" }, [
            "6:1: 'title' of [[item]] #1 has no text for \"fr\"; in \"fr\" the \"en\" text (the default language's) is shown",
            "7:1: 'subtitle' of [[item]] #1 has no text for \"en\"; in \"en\" the \"de\" text is shown",
            "7:44: 'subtitle' of [[item]] #1 has a text for \"it\", but [languages] available does not list \"it\"; it is never shown",
        ])
        XCTAssertEqual(config.items[0].subtitle, "Boote", "without the default language's text, the first available one it has")
        XCTAssertTrue(config.warnings.allSatisfy { $0.file.hasSuffix("config.toml") })
    }

    func testProblemsOfTheLanguagesTableAndOfTextTables() {
        let fixture = ConfigFixture()
        XCTAssertEqual(fixture.report("[languages]\navailable = [\"en\", \"de\"]\ndefault = \"fr\"\n"),
                       ["3:11: 'default' is \"fr\", which is not in 'available' (\"en\", \"de\")"])
        XCTAssertEqual(fixture.report("[languages]\navailable = [\"en\", \"english\", \"en\"]\n"), [
            "2:20: 'available' element 2 (\"english\") is not a language code such as \"en\", \"de\" or \"pt-BR\"",
            "2:31: 'available' lists \"en\" twice",
        ])
        XCTAssertEqual(fixture.report("[languages]\ndefault = \"en\"\n"), ["2:11: 'default' needs 'available' = [\"en\", …], the languages to show"])
        XCTAssertEqual(fixture.report("[[item]]\ntitle = { en = \"A\", de = \"B\" }\n"),
                       ["2:9: 'title' is written per language, but there is no [languages] table; add [languages] available = [\"de\", \"en\"]"])
        XCTAssertEqual(fixture.report(twoLanguages + "[[item]]\ntitle = { en = \"A\", \"e n\" = \"B\" }\n"),
                       ["5:21: 'title' has \"e n\", which is not a language code such as \"en\", \"de\" or \"pt-BR\""])
        XCTAssertEqual(fixture.report(twoLanguages + "[[item]]\ntitle = \"A\"\nsubtitle = { en = \"\", de = \"B\" }\n"),
                       ["6:19: 'subtitle' en must not be empty"])
        XCTAssertEqual(fixture.report(twoLanguages + "[[item]]\ntitle = { }\n"),
                       ["5:9: 'title' must give a text for at least one language, such as { en = \"…\" }"])
        XCTAssertEqual(fixture.report(twoLanguages + "[[item]]\ntitle = 3\n"),
                       ["5:9: 'title' must be a string or a table of languages such as { en = \"…\", de = \"…\" }, not an integer"])
    }

    /// [languages] is a content table: a USB stick's content with its own replaces the kiosk's.
    func testImportedContentBringsItsLanguages() throws {
        let fixture = ConfigFixture()
        let machine = try fixture.load("[languages]\navailable = [\"en\"]\n[[item]]\ntitle = \"A\"\n")
        let content = try fixture.load(twoLanguages + "[[item]]\ntitle = { en = \"Harbour\", de = \"Hafen\" }\n", name: "content.toml")
        let shown = try ImportedContent.overlay(content, tables: ["languages", "item"], on: machine, contentFile: "content.toml")
        XCTAssertEqual(shown.languages.available, ["en", "de"])
        XCTAssertEqual(shown.localized(to: "de").items.map(\.title), ["Hafen"])
        XCTAssertTrue(ImportedContent.contentTables.contains("languages"))
    }

    func testLanguageCodes() {
        for good in ["en", "de", "pt-BR", "zh-Hant", "gsw"] { XCTAssertTrue(LanguageCode.isValid(good), good) }
        for bad in ["", "e", "english", "en_GB", "en-", "-en", "e1", "en-x"] { XCTAssertFalse(LanguageCode.isValid(bad), bad) }
    }

    /// check-config prints OK, then each warning as FILE:LINE:COLUMN: warning: …, and exits 0.
    func testCheckConfigPrintsWarningsAfterOK() throws {
        let fixture = ConfigFixture()
        let path = fixture.write("config.toml", twoLanguages + "[[item]]\ntitle = { en = \"The Harbour\" }\n")
        let r = try ProductBinary.run(["check-config", path])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.output, """
            OK
            \(path):5:1: warning: 'title' of [[item]] #1 has no text for "de"; in "de" the "en" text (the default language's) is shown

            """)
    }
}
