import Foundation
import XCTest
@testable import Raster

final class BenchSceneTests: XCTestCase {
    func testPatternTexelsMatchThePeersGenerator() {
        // Values printed by scene_gen_texture in ../shared/bench/peers/src/scene.c.
        let card = BenchScene.patternTexture(width: 480, height: 360, pattern: .card, variant: 0)
        XCTAssertEqual(card[0, 0], 0x0000_0000)
        XCTAssertEqual(card[240, 180], 0xFF7F_7F80)
        XCTAssertEqual(card[30, 0], 0xFF03_003E)
        XCTAssertEqual(card[6, 7], 0x7201_0271)
        let photo = BenchScene.patternTexture(width: 480, height: 360, pattern: .photo, variant: 4)
        XCTAssertEqual(photo[0, 0], 0xFF00_FF00)
        XCTAssertEqual(photo[16, 0], 0xFF00_3E02)
    }

    func testChecksumIsThePeersFNV() {
        let c = Canvas(width: 1, height: 1)
        c[0, 0] = 0x0001_0203
        XCTAssertEqual(BenchScene.checksum(c), 0x8F4E_A14F_2BE0_1E85)
    }

    /// The scenes `bench suite` renders on a board: all load, each under its own name, and
    /// those of ../shared/bench, when it is there, are the files' scenes (scripts/arm64/check-pixels.sh
    /// compares all seven as JSON).
    func testBuiltInScenesLoadAndMatchTheSharedFiles() throws {
        let names = BenchScene.builtInScenes.map(\.name)
        XCTAssertEqual(Array(names.prefix(4)), ["coverflow", "scaling", "fullscreen", "rotary"])
        XCTAssertEqual(Set(names).count, names.count)
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/bench/scenes").standardized.path
        for (name, json) in BenchScene.builtInScenes {
            let scene = try BenchScene.load(data: Data(json.utf8), source: name)
            XCTAssertEqual(scene.name, name)
            XCTAssertFalse(scene.quads.isEmpty, name)
            let file = shared + "/" + name + ".json"
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let fromFile = try BenchScene.load(path: file)
            XCTAssertEqual(scene.width, fromFile.width, name)
            XCTAssertEqual(scene.background, fromFile.background, name)
            XCTAssertEqual(scene.quads.map(\.corners), fromFile.quads.map(\.corners), name)
            XCTAssertEqual(scene.quads.map(\.alpha), fromFile.quads.map(\.alpha), name)
        }
    }

    func testLoadsASceneAndReportsAreas() throws {
        let path = try write("""
            {"name": "t", "width": 100, "height": 50, "background": [1, 2, 3],
             "textures": [{"id": "a", "width": 8, "height": 4, "pattern": "photo"}],
             "quads": [{"texture": "a", "corners": [[-10, 0], [10, 0], [10, 20], [-10, 20]], "alpha": 0.5}]}
            """)
        let s = try BenchScene.load(path: path)
        XCTAssertEqual(s.name, "t")
        XCTAssertEqual(s.background, 0xFF01_0203)
        XCTAssertEqual(s.quads.count, 1)
        XCTAssertEqual(s.quads[0].alpha, 0.5)
        XCTAssertEqual(s.coveredArea, 200, accuracy: 1e-9)
        XCTAssertEqual(s.boundingBoxArea, 11 * 21)
    }

    func testBadScenesNameTheFileAndThePlace() throws {
        let cases: [(String, String)] = [
            ("{\"name\": 1}", "name"),
            ("not json", "not valid JSON"),
            ("""
             {"name": "t", "width": 10, "height": 10, "background": [0, 0, 0],
              "textures": [{"id": "a", "width": 8, "height": 4, "pattern": "photo"}],
              "quads": [{"texture": "a", "corners": [[0, 0], [1, 0], [1, 1]]}]}
             """, "quads[0].corners"),
            ("""
             {"name": "t", "width": 10, "height": 10, "background": [0, 0, 0],
              "textures": [{"id": "a", "width": 8, "height": 4, "pattern": "velvet"}], "quads": []}
             """, "textures[0].pattern"),
            ("""
             {"name": "t", "width": 10, "height": 10, "background": [0, 0, 0],
              "textures": [], "quads": [{"texture": "zz", "corners": [[0, 0], [1, 0], [1, 1], [0, 1]]}]}
             """, "no texture with id"),
        ]
        for (text, expected) in cases {
            let path = try write(text)
            XCTAssertThrowsError(try BenchScene.load(path: path)) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.hasPrefix(path), message)
                XCTAssertTrue(message.contains(expected), message)
            }
        }
        XCTAssertThrowsError(try BenchScene.load(path: "/nonexistent/scene.json"))
    }

    func testCardOpaqueRegionsFormACrossInsideTheRoundedCorners() {
        let card = BenchScene.patternTexture(width: 100, height: 80, pattern: .card, variant: 0)
        XCTAssertEqual(card.opaqueRegions, [TexelRect(x0: 0, y0: 24, x1: 100, y1: 56), TexelRect(x0: 24, y0: 0, x1: 76, y1: 80)])
        let photo = BenchScene.patternTexture(width: 10, height: 6, pattern: .photo, variant: 0)
        XCTAssertEqual(photo.opaqueRegions, [TexelRect(x0: 0, y0: 0, x1: 10, y1: 6)])
        XCTAssertEqual(RT.solid(4, 4, 0x8080_8080).opaqueRegions, [])
    }

    private func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "raster-scene-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
