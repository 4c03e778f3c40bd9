import KioskConfig
import Raster
import TestSupport
import XCTest
@testable import Cards

/// A playing clip's faces (issue 28 §6): drawn into pooled textures over the card's kept
/// background and text, each equal to the byte to the full redraw (`CardFaceRenderer.videoFace`),
/// with no texture made per frame once the clip plays.
final class VideoFaceComposerTests: XCTestCase {
    let renderer = CardFaceRenderer()

    /// An opaque frame whose pixels differ from frame to frame (and within it). Written row by
    /// row through the pixel pointer: a closure call per pixel (`Texture(width:height:fill:)`)
    /// costs seconds per test under qemu-user.
    func frame(_ n: Int, width: Int, height: Int) -> Texture {
        let t = Texture(width: width, height: height)
        var y = 0
        while y < height {
            let row = t.pixels + y * width
            let g = UInt32((y * 5 + n * 29) & 0xFF) << 8
            var x = 0
            while x < width {
                row[x] = 0xFF00_0000 | UInt32((x * 3 + n * 17) & 0xFF) << 16 | g | UInt32((x ^ y ^ n) & 0xFF)
                x += 1
            }
            y += 1
        }
        return t
    }

    func pixels(_ t: Texture) -> [UInt32] { Array(UnsafeBufferPointer(start: t.pixels, count: t.width * t.height)) }

    /// How many pixels of `a` and `b` differ (every pixel when their sizes differ): `memcmp` row
    /// by row (`PixelComparison`), where `zip(pixels(a), pixels(b)).filter` took most of these
    /// tests' time in a debug build.
    func differingPixels(_ a: Texture, _ b: Texture) -> Int {
        guard a.width == b.width, a.height == b.height else { return max(a.width * a.height, b.width * b.height) }
        return PixelComparison.differing(a.pixels, b.pixels, count: a.width * a.height)
    }

    /// Cards with and without shadow, subtitle, border, gradient and rounded corners; frames
    /// decoded at the drawn size with a whole-pixel offset (640 → 480), a half-pixel one (641)
    /// and smaller than the card (drawn scaled up), fitted `cover` and `contain`.
    func cases() -> [(name: String, item: ItemConfig, card: (Int, Int), frame: (Int, Int))] {
        var plain = ItemConfig(id: "plain", title: "Harbour")
        plain.video = "/nonexistent/clip.mp4"
        var dressed = ItemConfig(id: "dressed", title: "Harbour at dawn, a long title that wraps")
        dressed.subtitle = "A clip on its card"
        dressed.style.shadow = true
        dressed.style.borderWidth = 3
        dressed.style.borderColor = 0xFFFF_CC00
        dressed.style.background = 0xFF20_3040
        dressed.style.backgroundBottom = 0xFF60_5040
        dressed.style.cornerRadius = 24
        var contain = ItemConfig(id: "contain", title: "Small")
        contain.style.imageFit = "contain"
        contain.style.shadow = true
        contain.style.cornerRadius = 30
        var bare = ItemConfig(id: "bare", title: "")
        bare.style.cornerRadius = 0
        return [("plain 640", plain, (480, 360), (640, 360)), ("dressed 641", dressed, (480, 360), (641, 360)),
                ("contain scaled up", contain, (400, 300), (320, 240)), ("bare", bare, (160, 120), (160, 90))]
    }

    func testEachFaceEqualsTheFullRedrawFrameAfterFrame() {
        for c in cases() {
            let faces = VideoFaceComposer(item: c.item, width: c.card.0, height: c.card.1, capacity: 3)
            var shown: Texture?
            for n in 0..<5 {
                let f = frame(n, width: c.frame.0, height: c.frame.1)
                let face = faces.face(showing: f)
                let full = renderer.videoFace(c.item, frame: f, width: c.card.0, height: c.card.1)
                let differing = differingPixels(face, full)
                XCTAssertEqual(differing, 0, "\(c.name), frame \(n): \(differing) pixels differ from the full redraw")
                shown = face
            }
            XCTAssertNotNil(shown)
            XCTAssertEqual(faces.allocations, 2, "\(c.name): the face shown and the one being drawn, reused")
        }
    }

    /// Frames drawn `cover` at 1:1 on whole pixels are copied into the face, cairo drawing only
    /// the corners: the same bytes as the full redraw for every corner radius (none, small,
    /// large, half the card), with a border, shadow and subtitle, cropped left and right or top
    /// and bottom, and on a card whose background shows only in its corners.
    func testFramesCopiedOnWholePixelsEqualTheFullRedraw() {
        var cases: [(name: String, item: ItemConfig, card: (Int, Int), frame: (Int, Int))] = []
        for radius in [0.0, 1.0, 12.0, 24.5, 90.0, 400.0] {
            var item = ItemConfig(id: "r\(radius)", title: "Harbour at dawn")
            item.subtitle = "A clip on its card"
            item.style.cornerRadius = radius
            item.style.shadow = radius > 10
            item.style.borderWidth = radius == 24.5 ? 3 : 0
            item.style.background = 0xFF20_3040
            item.style.backgroundBottom = 0xFF60_5040
            cases.append(("radius \(radius), wide", item, (480, 360), (640, 360)))
            cases.append(("radius \(radius), tall", item, (320, 180), (320, 240)))
        }
        // The text on an opaque plate, and a long title wrapping over three lines whose soft
        // shadows and glyphs overlap from line to line, over the shadow, with a border.
        var plate = ItemConfig(id: "plate", title: "Harbour at dawn")
        plate.subtitle = "On a plate"
        plate.style.textPlate = 0xFF10_2030
        plate.style.borderWidth = 2
        cases.append(("text plate", plate, (480, 360), (640, 360)))
        var wrapped = ItemConfig(id: "wrapped", title: "Harbour at dawn, gulls over the quay, the fishing boats coming in")
        wrapped.subtitle = "Recorded on the quay, spring"
        wrapped.style.titleLines = 3
        wrapped.style.shadow = true
        wrapped.style.borderWidth = 1.5
        wrapped.style.borderColor = 0x80FF_FFFF
        cases.append(("wrapped title", wrapped, (320, 240), (426, 240)))
        for c in cases {
            let faces = VideoFaceComposer(item: c.item, width: c.card.0, height: c.card.1, capacity: 3)
            for n in 0..<3 {
                let f = frame(n, width: c.frame.0, height: c.frame.1)
                let a = faces.face(showing: f)
                let b = renderer.videoFace(c.item, frame: f, width: c.card.0, height: c.card.1)
                let differing = differingPixels(a, b)
                XCTAssertEqual(differing, 0, "\(c.name), frame \(n): \(differing) pixels differ from the full redraw")
            }
            XCTAssertTrue(faces.blendsRecordedOverlay, "\(c.name): blended from the recorded layers, not drawn by cairo")
        }
    }

    /// A frame the decoder scales straight into a face (`target`, as a cover card's player does)
    /// gets the same face as a frame copied in; a frame that does not fill the card exactly gets
    /// no target.
    func testAFrameScaledIntoTheFaceEqualsTheFullRedraw() throws {
        var item = ItemConfig(id: "dressed", title: "Harbour at dawn")
        item.subtitle = "A clip on its card"
        item.style.shadow = true
        item.style.borderWidth = 3
        item.style.cornerRadius = 24
        let faces = VideoFaceComposer(item: item, width: 480, height: 360, capacity: 3)
        for n in 0..<3 {
            let f = frame(n, width: 640, height: 360)
            let target = try XCTUnwrap(faces.target(frameWidth: 640, frameHeight: 360, columns: 80..<560))
            XCTAssertEqual(target.x, -80)
            XCTAssertEqual(target.y, 0)
            for y in 0..<360 { (target.texture.pixels + y * 480).update(from: f.pixels + y * 640 + 80, count: 480) }
            let face = faces.face(showing: target.texture)
            XCTAssertTrue(face === target.texture, "the face is the texture scaled into")
            let b = renderer.videoFace(item, frame: f, width: 480, height: 360)
            XCTAssertEqual(differingPixels(face, b), 0, "frame \(n)")
        }
        XCTAssertNil(faces.target(frameWidth: 640, frameHeight: 360, columns: 78..<562), "more columns than the card")
        XCTAssertNil(faces.target(frameWidth: 480, frameHeight: 400, columns: 0..<480), "taller than the card")
        XCTAssertNil(faces.target(frameWidth: 641, frameHeight: 360, columns: 80..<560), "not on whole pixels")
        var contain = item
        contain.style.imageFit = "contain"
        XCTAssertNil(VideoFaceComposer(item: contain, width: 480, height: 360, capacity: 3)
            .target(frameWidth: 640, frameHeight: 360, columns: 80..<560), "contain")
    }

    func testAFaceStillHeldIsNeverDrawnOver() {
        let c = cases()[1]
        let faces = VideoFaceComposer(item: c.item, width: c.card.0, height: c.card.1, capacity: 3)
        let kept = faces.face(showing: frame(0, width: c.frame.0, height: c.frame.1))
        let before = pixels(kept)
        let generation = kept.generation
        var others: [ObjectIdentifier] = []
        for n in 1..<8 { others.append(ObjectIdentifier(faces.face(showing: frame(n, width: c.frame.0, height: c.frame.1)))) }
        XCTAssertEqual(pixels(kept), before, "the held face keeps its picture")
        XCTAssertEqual(kept.generation, generation)
        XCTAssertFalse(others.contains(ObjectIdentifier(kept)))
    }

    func testFacesMakeTheirMipLevelsOnlyWhenDrawnMinified() {
        let c = cases()[0]
        let faces = VideoFaceComposer(item: c.item, width: c.card.0, height: c.card.1, capacity: 3)
        let f = frame(3, width: c.frame.0, height: c.frame.1)
        let face = faces.face(showing: f)
        XCTAssertTrue(face.mipLevels.isEmpty, "not made per frame")
        let full = renderer.videoFace(c.item, frame: f, width: c.card.0, height: c.card.1)
        full.buildMipLevels()
        XCTAssertEqual(face.mipLevelCount, full.mipLevels.count)
        XCTAssertEqual(pixels(face.mipLevel(2)), pixels(full.mipLevels[1]), "made on demand, they equal the full redraw's")
    }
}
