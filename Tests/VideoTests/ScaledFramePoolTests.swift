import RasterCore
@testable import Video
import XCTest

/// The decoder scales frames into pooled textures (issue 28 §6): none is made per frame once
/// the frames before are let go, and a frame still held keeps its picture.
final class ScaledFramePoolTests: XCTestCase {
    func testFramesLetGoAreScaledIntoTheSameTexture() throws {
        let decoder = try VideoDecoder(path: try Clips.redThenBlue(), outputWidth: 32, outputHeight: 24, hardware: .off)
        var frames = 0
        var textures = Set<ObjectIdentifier>()
        while let frame = try decoder.nextFrame() {
            frames += 1
            textures.insert(ObjectIdentifier(frame.texture))
        }
        XCTAssertEqual(frames, 20)
        XCTAssertEqual(decoder.scaledTextureAllocations, 1, "each frame let go before the next is scaled into the same texture")
        XCTAssertEqual(textures.count, 1)
    }

    func testAFrameStillHeldKeepsItsPicture() throws {
        let decoder = try VideoDecoder(path: try Clips.redThenBlue(), outputWidth: 32, outputHeight: 24, hardware: .off)
        let first = try XCTUnwrap(try decoder.nextFrame())
        let red = Array(UnsafeBufferPointer(start: first.texture.pixels, count: 32 * 24))
        var last: VideoFrame?
        while let frame = try decoder.nextFrame() { last = frame }
        XCTAssertFalse(try XCTUnwrap(last).texture === first.texture)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: first.texture.pixels, count: 32 * 24)), red, "the first (red) frame is untouched")
        XCTAssertEqual(first.texture.generation, 0)
        XCTAssertEqual(decoder.scaledTextureAllocations, 3, "the first frame, the one kept as last and the one being scaled")
    }
}

/// Frames scaled straight into a texture the caller gives (`FrameTarget`: a card's face), only
/// the columns the fused converter makes, where the target places them.
final class FrameTargetTests: XCTestCase {
    func testFramesScaledIntoTheTargetEqualTheShownColumnsOfTheDecodersOwn() throws {
        let clip = try Clips.moving()
        // 160×120 → 80×60 (2:1, fused), of which the middle 60 columns are shown: 10 ..< 70.
        let own = try VideoDecoder(path: clip, outputSize: { _ in (80, 60) }, shownWidth: 60, hardware: .off)
        let face = Texture(width: 60, height: 60)
        var asked: [Range<Int>] = []
        let into = try VideoDecoder(path: clip, outputSize: { _ in (80, 60) }, shownWidth: 60, target: { w, h, columns in
            XCTAssertEqual(w, 80)
            XCTAssertEqual(h, 60)
            asked.append(columns)
            return (face, -columns.lowerBound, 0)
        }, hardware: .off)
        var frames = 0
        while let a = try own.nextFrame() {
            let b = try XCTUnwrap(try into.nextFrame())
            XCTAssertTrue(b.texture === face, "scaled into the target")
            for y in 0..<60 {
                let expected = Array(UnsafeBufferPointer(start: a.texture.pixels + y * 80 + 10, count: 60))
                XCTAssertEqual(Array(UnsafeBufferPointer(start: face.pixels + y * 60, count: 60)), expected, "frame \(frames), row \(y)")
            }
            frames += 1
        }
        XCTAssertEqual(frames, 30)
        XCTAssertEqual(asked.first, 10..<70)
        XCTAssertEqual(into.scaledTextureAllocations, 0, "no texture of the decoder's own")
    }

    func testATargetThatDoesNotFitIsNotWrittenAndTheDecodersOwnTextureIsUsed() throws {
        let face = Texture(width: 50, height: 60)
        let decoder = try VideoDecoder(path: try Clips.moving(), outputSize: { _ in (80, 60) }, shownWidth: 60,
                                       target: { _, _, columns in (face, -columns.lowerBound, 0) }, hardware: .off)
        let frame = try XCTUnwrap(try decoder.nextFrame())
        XCTAssertFalse(frame.texture === face, "60 columns do not fit in 50")
        XCTAssertTrue(UnsafeBufferPointer(start: face.pixels, count: 50 * 60).allSatisfy { $0 == 0 }, "the target is untouched")
        XCTAssertEqual(decoder.scaledTextureAllocations, 1)
    }
}
