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

    /// A file read, changed and read again through one cache: the second reading sees the
    /// change, its problems have the places of the new text, and reading the same text twice
    /// gives the same result (the second time from the cache).
    func testAFileReadAgainAfterAnEditIsReadAsEdited() throws {
        let fixture = ConfigFixture()
        let parses = ParsedTextCache()
        func load(_ text: String) throws -> KioskConfiguration {
            try ConfigLoader.load(path: fixture.write("config.toml", text), parses: parses)
        }
        let linear = "[carousel]\ntype = \"linear\"\n"
        XCTAssertEqual(try load(linear).carousel.type, .linear)
        XCTAssertNotNil(parses.parse(of: linear), "the reading kept its parse")
        XCTAssertEqual(try load(linear).carousel.type, .linear)
        XCTAssertEqual(try load("# edited\n[carousel]\ntype = \"wheel\"\n").carousel.type, .wheel)
        XCTAssertNil(parses.parse(of: linear), "replaced by the edited text's")
        XCTAssertThrowsError(try load("# edited\n\n[carousel]\ntype = \"whel\"\n")) { error in
            let d = (error as? ConfigErrors)?.diagnostics.first
            XCTAssertEqual(d?.line, 4, "the place in the text read, not in the one before: \(String(describing: d))")
        }
        XCTAssertThrowsError(try load("# edited\n\n[carousel]\ntype = \"whel\"\n"), "a text with problems has them when read again")
    }
}
