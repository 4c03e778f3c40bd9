import Foundation
import TOMLKit
import XCTest
@testable import KioskConfig

/// The committed reference is the generated one; the example config is valid and uses what it says.
final class ConfigReferenceTests: XCTestCase {
    func testCommittedReferenceMatchesTheSchema() throws {
        let committed = try String(contentsOfFile: repositoryRoot + "/docs/configuration.md", encoding: .utf8)
        XCTAssertTrue(committed == ConfigReference.markdown(),
                      "docs/configuration.md is stale: run `swift run kiosk-carousel config-reference > docs/configuration.md`")
    }

    func testEverySectionIsDocumentedWithAnExampleThatUsesOnlyKnownKeys() throws {
        let sections = ConfigReference.sections
        XCTAssertEqual(Set(sections.map(\.title)).count, sections.count)
        for name in ["[display]", "[carousel]", "[[carousel.keyframes]]", "[input]", "[input.rotary]", "[input.dial]", "[input.keymap]",
                     "[idle]", "[theme]", "[theme.card]", "[theme.page_indicator]", "[theme.title_overlay]", "[theme.dial]", "[cards]",
                     "[items]", "[[item]]", "action = { … } in [[item]]", "[actions]", "[actions.env]", "[control]"] {
            XCTAssertTrue(sections.contains { $0.title == name }, name)
        }
        for s in sections {
            XCTAssertFalse(s.doc.isEmpty, s.title)
            for r in s.rows { XCTAssertFalse(r.doc.isEmpty || r.defaultText.isEmpty || r.type.isEmpty, "\(s.title) \(r.key)") }
            // Each example is valid TOML and names only keys the schema knows (its paths need not exist here).
            do {
                _ = try TOMLTable(string: s.exampleText)
            } catch {
                XCTFail("\(s.title) example is not TOML: \(error)\n\(s.exampleText)")
            }
            do {
                _ = try ConfigLoader.parse(s.exampleText, file: "/nonexistent/config.toml")
            } catch let e as ConfigErrors {
                let unexpected = e.diagnostics.filter { d in
                    !(d.message.contains("does not exist") || d.message.contains("home_item") || d.message.contains("needs '"))
                }
                XCTAssertEqual(unexpected, [], s.title)
            }
        }
    }

    func testTheExampleConfigIsValid() throws {
        let c = try ConfigLoader.load(path: repositoryRoot + "/config/example.toml")
        XCTAssertGreaterThanOrEqual(c.items.count, 12)
        XCTAssertEqual(Set(c.items.map(\.id)).count, c.items.count)
        for item in c.items {
            let image = try XCTUnwrap(item.image, item.id)
            XCTAssertTrue(image.hasPrefix(repositoryRoot + "/config/media/"), image)
            XCTAssertTrue(FileManager.default.fileExists(atPath: image), image)
            XCTAssertFalse(item.title.isEmpty)
        }
        XCTAssertEqual(c.items[c.idle.homeItem].id, "dawn")
        XCTAssertEqual(Set(c.items.compactMap { $0.image.map { ($0 as NSString).pathExtension } }), ["svg", "png", "jpg", "webp"])
    }
}
