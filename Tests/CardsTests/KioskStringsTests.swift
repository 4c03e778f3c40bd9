import XCTest
@testable import Cards

/// The kiosk's own strings (issue 30, languages): every text in English and German, with the
/// same placeholders; other languages fall back to English.
final class KioskStringsTests: XCTestCase {
    func testEveryTextIsInEnglishAndGermanWithTheSamePlaceholders() {
        XCTAssertEqual(KioskStrings.languages, ["de", "en"])
        for key in KioskText.allCases {
            let english = KioskStrings.english[key], german = KioskStrings.german[key]
            XCTAssertNotNil(english, "\(key) has no English text")
            XCTAssertNotNil(german, "\(key) has no German text")
            XCTAssertNotEqual(english, german, "\(key)'s German text is the English one")
            for n in 1...3 {
                XCTAssertEqual(english?.contains("{\(n)}"), german?.contains("{\(n)}"), "\(key): placeholder {\(n)}")
            }
        }
    }

    func testArgumentsSubregionsAndFallback() {
        XCTAssertEqual(KioskStrings.text(.rolledBack, "de", "1.2"), "Zurück zu Version 1.2")
        XCTAssertEqual(KioskStrings.text(.noItemsYet, "de-AT"), "Noch keine Inhalte", "de-AT reads the German table")
        XCTAssertEqual(KioskStrings.text(.noItemsYet, "fr"), "No items yet", "a language without a table: English")
        XCTAssertEqual(KioskStrings.itemsToShow(1, "en"), "1 item to show.")
        XCTAssertEqual(KioskStrings.itemsToShow(3, "de"), "3 Inhalte werden gezeigt.")
    }

    /// The empty carousel's card in English is what it always was (simulate output unchanged).
    func testTheEmptyCarouselInEachLanguage() {
        XCTAssertEqual(MessageCard.emptyCarousel(folder: "/srv/media", configFile: "/etc/k.toml"),
                       MessageCard(title: "No items yet", lines: ["Add pictures to /srv/media"],
                                   footer: "They appear here as soon as they are copied."))
        XCTAssertEqual(MessageCard.emptyCarousel(folder: nil, configFile: "", language: "de"),
                       MessageCard(title: "Noch keine Inhalte", lines: ["[[item]]-Tabellen in die Konfigurationsdatei eintragen"],
                                   footer: "Sie erscheinen hier, sobald die Datei gespeichert ist."))
    }
}
