import XCTest
@testable import KioskConfig

final class TOMLPositionIndexTests: XCTestCase {
    func at(_ index: TOMLPositionIndex, key path: ConfigPath) -> String {
        let p = index.keyPosition(path)
        return "\(p.line):\(p.column)"
    }

    func at(_ index: TOMLPositionIndex, value path: ConfigPath) -> String {
        let p = index.valuePosition(path)
        return "\(p.line):\(p.column)"
    }

    func testTablesKeysAndValues() {
        let index = TOMLPositionIndex(text: """
            # comment
            top = 1
            [carousel]
              type   = "rotary"  # trailing
            fade_min=-2
            """)
        XCTAssertEqual(at(index, key: [.key("top")]), "2:1")
        XCTAssertEqual(at(index, value: [.key("top")]), "2:7")
        XCTAssertEqual(at(index, key: [.key("carousel")]), "3:2")
        XCTAssertEqual(at(index, key: [.key("carousel"), .key("type")]), "4:3")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("type")]), "4:12")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("fade_min")]), "5:10")
    }

    func testArraysOfTablesAreNumbered() {
        let index = TOMLPositionIndex(text: """
            [[item]]
            id = "a"
            [[item]]
            id = "b"
            [item.action]
            emit = "x"
            [[item]]
            [[carousel.keyframes]]
            offset = 1
            """)
        XCTAssertEqual(at(index, key: [.key("item"), .index(0)]), "1:3")
        XCTAssertEqual(at(index, value: [.key("item"), .index(1), .key("id")]), "4:6")
        XCTAssertEqual(at(index, key: [.key("item"), .index(1), .key("action")]), "5:7")
        XCTAssertEqual(at(index, value: [.key("item"), .index(1), .key("action"), .key("emit")]), "6:8")
        XCTAssertEqual(at(index, key: [.key("item"), .index(2)]), "7:3")
        XCTAssertEqual(at(index, value: [.key("carousel"), .key("keyframes"), .index(0), .key("offset")]), "9:10")
    }

    func testDottedQuotedAndInlineKeys() {
        let index = TOMLPositionIndex(text: """
            input.rotary.axis = "REL_X"
            "quoted key" = 1
            'lit' = 2
            [[item]]
            action = { exec = ["/bin/true", "a"], mode = "background" }
            """)
        XCTAssertEqual(at(index, key: [.key("input")]), "1:1")
        XCTAssertEqual(at(index, key: [.key("input"), .key("rotary")]), "1:7")
        XCTAssertEqual(at(index, key: [.key("input"), .key("rotary"), .key("axis")]), "1:14")
        XCTAssertEqual(at(index, key: [.key("quoted key")]), "2:1")
        XCTAssertEqual(at(index, key: [.key("lit")]), "3:1")
        let action: ConfigPath = [.key("item"), .index(0), .key("action")]
        XCTAssertEqual(at(index, value: action), "5:10")
        XCTAssertEqual(at(index, key: action + [.key("exec")]), "5:12")
        XCTAssertEqual(at(index, value: action + [.key("exec"), .index(1)]), "5:33")
        XCTAssertEqual(at(index, value: action + [.key("mode")]), "5:46")
    }

    func testMultilineValuesAndStringsWithBrackets() {
        let index = TOMLPositionIndex(text: """
            a = \"\"\"
            [not a table]
            x = 1
            \"\"\"
            b = [
              1,  # one
              [2, 3],
              { c = "]" },
            ]
            d = "#not a comment" # comment
            e = 'C:\\dir'
            """)
        XCTAssertFalse(index.contains([.key("not a table")]))
        XCTAssertFalse(index.contains([.key("x")]))
        XCTAssertEqual(at(index, value: [.key("b"), .index(0)]), "6:3")
        XCTAssertEqual(at(index, value: [.key("b"), .index(1), .index(1)]), "7:7")
        XCTAssertEqual(at(index, key: [.key("b"), .index(2), .key("c")]), "8:5")
        XCTAssertEqual(at(index, key: [.key("d")]), "10:1")
        XCTAssertEqual(at(index, value: [.key("e")]), "11:5")
    }

    func testColumnsCountCharactersNotBytes() {
        let index = TOMLPositionIndex(text: "t = \"日本語\"; x\nu = 1\n")
        XCTAssertEqual(at(index, key: [.key("u")]), "2:1")
        let index2 = TOMLPositionIndex(text: "title = \"Café\" \nnext = 2")
        XCTAssertEqual(at(index2, value: [.key("next")]), "2:8")
    }

    func testUnknownPathsFallBackToTheNearestKnownOne() {
        let index = TOMLPositionIndex(text: "\n[idle]\nhome_item = 3\n")
        XCTAssertEqual(at(index, key: [.key("idle"), .key("missing")]), "2:2")
        XCTAssertEqual(at(index, key: [.key("nothing")]), "1:1")
    }

    func testGarbageNeverTraps() {
        for text in ["[", "[[", "a = [", "a = {", "\"", "'''", "a = \"\\u", "[a.", "= = =", "a.b.c.", "{}", "]]]]", "a = [[[[{x = [",
                     String(repeating: "[", count: 10_000), String(repeating: "a = {b = ", count: 2_000)] {
            _ = TOMLPositionIndex(text: text)
        }
    }
}
