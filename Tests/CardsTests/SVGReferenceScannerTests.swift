import XCTest
@testable import Cards

final class SVGReferenceScannerTests: XCTestCase {
    func scan(_ s: String) -> String? { SVGReferenceScanner.firstExternalReference(in: s) }

    func testFindsEveryKindOfExternalReference() {
        XCTAssertEqual(scan("<image href=\"photo.png\"/>"), "photo.png")
        XCTAssertEqual(scan("<image xlink:href = 'file:///etc/passwd'/>"), "file:///etc/passwd")
        XCTAssertEqual(scan("<use HREF=\"other.svg#icon\"/>"), "other.svg#icon")
        XCTAssertEqual(scan("<rect style=\"fill:url(http://x.org/p.svg#a)\"/>"), "http://x.org/p.svg#a")
        XCTAssertEqual(scan("<rect fill=\"url( 'pat.svg#p' )\"/>"), "pat.svg#p")
        XCTAssertNotNil(scan("<style>@import url(#x); rect{}</style>"))
        XCTAssertNotNil(scan("<!DOCTYPE svg [<!ENTITY e PUBLIC \"x\" \"http://e/\">]><svg/>"))
        XCTAssertNotNil(scan("<xi:include href=\"../secret.xml\" parse=\"text\"/>"))
    }

    func testInlineReferencesAreFine() {
        XCTAssertNil(scan("<use href=\"#a\"/><rect fill=\"url(#grad)\"/><image href=\"data:image/png;base64,AAAA\"/>"))
        XCTAssertNil(scan("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\"><svg/>"))
        XCTAssertNil(scan("<a hreflang=\"en\"/><text>href is a word</text>"))
        XCTAssertNil(scan("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"/>"))
    }
}
