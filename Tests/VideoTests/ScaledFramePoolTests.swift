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
