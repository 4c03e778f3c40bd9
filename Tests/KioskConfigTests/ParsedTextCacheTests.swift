import Foundation
import XCTest
@testable import KioskConfig

/// `ParsedTextCache`: the second reading of the same text takes the first one's parse; any other
/// text is parsed anew, and what a reading reports does not depend on the cache.
final class ParsedTextCacheTests: XCTestCase {
    func testOnlyTheSameTextIsFound() throws {
        let cache = ParsedTextCache()
        let text = "[carousel]\ntype = \"linear\"\n"
        XCTAssertNil(cache.parse(of: text))
        cache.store(text, index: TOMLPositionIndex(text: text), document: try TOMLNode.parse(text))
        let found = try XCTUnwrap(cache.parse(of: text))
        XCTAssertEqual(found.index.keyPosition([.key("carousel"), .key("type")]), SourcePosition(line: 2, column: 1))
        XCTAssertNil(cache.parse(of: text + " "), "one more byte is another text")
        XCTAssertNil(cache.parse(of: "[carousel]\ntype = \"wheel\"\n"))
        let other = "[idle]\ntimeout = 5\n"
        cache.store(other, index: TOMLPositionIndex(text: other), document: try TOMLNode.parse(other))
        XCTAssertNil(cache.parse(of: text), "one entry: the newest text's")
        XCTAssertNotNil(cache.parse(of: other))
    }

    /// A file read, changed and read again: the second reading sees the change, its problems
    /// have the places of the new text, and reading the same text twice gives the same result.
    func testAFileReadAgainAfterAnEditIsReadAsEdited() throws {
        let fixture = ConfigFixture()
        let first = try fixture.load("[carousel]\ntype = \"linear\"\n")
        XCTAssertEqual(first.carousel.type, .linear)
        XCTAssertEqual(try fixture.load("[carousel]\ntype = \"linear\"\n").carousel.type, .linear)
        XCTAssertEqual(try fixture.load("# edited\n[carousel]\ntype = \"wheel\"\n").carousel.type, .wheel)
        XCTAssertThrowsError(try fixture.load("# edited\n\n[carousel]\ntype = \"whel\"\n")) { error in
            let d = (error as? ConfigErrors)?.diagnostics.first
            XCTAssertEqual(d?.line, 4, "the place in the text read, not in the one before: \(String(describing: d))")
        }
        XCTAssertThrowsError(try fixture.load("# edited\n\n[carousel]\ntype = \"whel\"\n"), "a text with problems has them when read again")
    }
}
