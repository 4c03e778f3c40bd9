import KioskConfig
import XCTest
@testable import Cards

/// Issue 27: the font check the loader is given (`MediaFileCheck.kiosk.font`) refuses what the
/// card workers refuse (`FontCatalog`), and says what fontconfig would draw instead and which
/// installed families are near. Needs `fonts-dejavu-core` (debian/control's Build-Depends, `make deps`).
final class FontCheckTests: XCTestCase {
    func testAFamilyThatIsNotInstalledIsRefusedWithWhatFontconfigWouldUse() throws {
        let why = try XCTUnwrap(FontCheck.problem(font: "No Such Font Family 12"))
        let used = try XCTUnwrap(FontCheck.matchedFamily("No Such Font Family 12"), "fc-match finds some font")
        XCTAssertTrue(why.hasPrefix("is not installed (fc-match would use \"\(used)\")"), why)
        XCTAssertTrue(FontCatalog.installed().contains(used.lowercased()), "fc-match's answer is an installed family: \(used)")
    }

    func testInstalledWeightsListsAndGenericFamiliesPass() {
        for font in ["DejaVu Sans", "dejavu sans", "DejaVu Sans Bold", "No Such Font, DejaVu Sans"] + FontFamilies.generic {
            XCTAssertNil(FontCheck.problem(font: font), font)
        }
    }

    func testAListWithNoInstalledFamilyNamesItsFirstFamilysNeighbours() throws {
        let why = try XCTUnwrap(FontCheck.problem(font: "DejaVu Sanz, Nothing Here"))
        XCTAssertTrue(why.hasPrefix("names no installed family (fc-match would use "), why)
        XCTAssertTrue(why.contains("; installed families near \"DejaVu Sanz\": \"DejaVu Sans\""), why)
    }

    func testATypoGetsTheInstalledFamilyItMeant() throws {
        let why = try XCTUnwrap(FontCheck.problem(font: "DejaVu Sanz"))
        XCTAssertTrue(why.contains("; installed families near it: \"DejaVu Sans\""), why)
    }

    /// The kiosk's and the stick's checks look fonts up (the loader reports at the value).
    func testTheProgramsChecksLookFontsUp() {
        XCTAssertNotNil(MediaFileCheck.kiosk.font?("No Such Font Family 12"))
        XCTAssertNotNil(MediaFileCheck.stick.font?("No Such Font Family 12"))
        XCTAssertNil(MediaFileCheck.kiosk.font?("DejaVu Sans"))
    }
}
