import Foundation
import RasterCore
import TestSupport
@testable import Video
import XCTest

/// The fused YUV 4:2:0 → BGRA converter (`CVideoConvert`, `FrameScaler`) against libswscale's
/// bilinear scale of the same frames: close (PSNR, largest difference of a channel), used exactly
/// where it covers the frames, and libswscale everywhere else (issue 28 §6).
final class FusedConverterTests: XCTestCase {
    /// PSNR of `a` against `b` over the colour channels of columns `columns`, and the largest
    /// difference of one channel. One pass over the raw rows (`PixelComparison`): a per-pixel
    /// loop of texture subscripts and `for shift in [0, 8, 16]` (an array per pixel) took most of
    /// this class's time in a debug build, and minutes under qemu-user.
    private func compare(_ a: Texture, _ b: Texture, columns: Range<Int>) -> (psnr: Double, largest: Int) {
        let (squares, largest, count) = PixelComparison.channelDifferences(a.pixels, stride: a.width, b.pixels, stride: b.width,
                                                                           columns: columns, rows: 0..<a.height)
        return (squares == 0 ? .infinity : 10 * log10(255 * 255 / (Double(squares) / Double(count))), largest)
    }

    /// Decodes `frames` frames of `path` at `width × height` both ways and checks the fused
    /// converter was used and is within 40 dB and 12 levels of libswscale (measured: 45–51 dB,
    /// at most 7 on these clips; a wrong tap, weight, offset or matrix coefficient costs far more).
    private func assertClose(_ path: String, _ width: Int, _ height: Int, shownWidth: Int? = nil, frames: Int = 3,
                             _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let size: (VideoInfo) -> (width: Int, height: Int) = { _ in (width, height) }
        let fused = try VideoDecoder(path: path, outputSize: size, shownWidth: shownWidth, hardware: .off, threads: 1,
                                     limits: VideoLimits(), isCancelled: { false })
        let swscale = try VideoDecoder(path: path, outputSize: size, hardware: .off, threads: 1, limits: VideoLimits(),
                                       fused: nil, isCancelled: { false })
        let shown = shownWidth.map { (width - $0) / 2 ..< (width + $0) / 2 } ?? 0..<width
        for n in 0..<frames {
            let a = try XCTUnwrap(fused.nextFrame(), file: file, line: line).texture
            let b = try XCTUnwrap(swscale.nextFrame(), file: file, line: line).texture
            XCTAssertTrue(fused.lastFrameWasFused, "\(what): the fused converter was not used", file: file, line: line)
            XCTAssertFalse(swscale.lastFrameWasFused, file: file, line: line)
            guard a.width == b.width, a.height == b.height else {
                return XCTFail("\(what), frame \(n): \(a.width)×\(a.height) against \(b.width)×\(b.height)", file: file, line: line)
            }
            let (psnr, largest) = compare(a, b, columns: shown)
            XCTAssertGreaterThan(psnr, 40, "\(what), frame \(n): PSNR \(psnr) dB against libswscale", file: file, line: line)
            XCTAssertLessThanOrEqual(largest, 12, "\(what), frame \(n): a channel differs by \(largest)", file: file, line: line)
            if let (x, y) = PixelComparison.firstNotOpaque(a.pixels, stride: a.width, columns: shown, rows: 0..<height) {
                XCTFail("\(what): pixel \(x),\(y) not opaque", file: file, line: line); return
            }
        }
    }

    func testScaledDownTestPatternsMatchLibswscale() throws {
        try assertClose(Clips.fullHD(), 640, 360, "1920×1080 → 640×360 (3:1, BT.709)")
        try assertClose(Clips.fullHD(), 480, 270, "1920×1080 → 480×270 (4:1)")
        try assertClose(Clips.fullHD(), 640, 360, shownWidth: 480, "1920×1080 → 640×360, the middle 480 columns")
        let hd = try TestClips.moving(size: "1280x720", seconds: 1)
        try assertClose(hd, 640, 360, "1280×720 → 640×360 (2:1)")
        try assertClose(hd, 1000, 562, "1280×720 → 1000×562 (1.28:1)")
        let sd = try TestClips.moving(size: "854x480", seconds: 1)
        try assertClose(sd, 640, 360, shownWidth: 480, "854×480 → 640×360 (1.33:1, BT.601), the middle 480 columns")
        // Not 852×480: at the same height libswscale blends the two nearest chroma rows half and
        // half (its one-tap vertical path) where the fused converter weighs them ¼ and ¾, so
        // colour edges differ by up to ~120 there; with any vertical scaling both interpolate.
        try assertClose(sd, 852, 478, "854×480 → 852×478 (nearly 1:1)")
    }

    /// A photograph (config/media's) as a clip: real-looking detail, not only a test pattern's
    /// flat areas and hard edges; full range (yuvj420p from MJPEG) and NV12 (raw video) too.
    func testPhotographAndOtherLayoutsAndRangesMatchLibswscale() throws {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/media/03-city-night.jpg").path
        guard FileManager.default.fileExists(atPath: photo) else { throw XCTSkip("no \(photo)") }
        let still = ["-loop", "1", "-i", photo, "-vf", "scale=1280:720", "-r", "5", "-t", "0.6"]
        try assertClose(Clips.make("photo-720p.mp4", still + Clips.x264), 640, 360, "a photograph, H.264 yuv420p")
        try assertClose(Clips.make("photo-720p-mjpeg.mkv", still + ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p"]), 426, 240,
                        "a photograph, MJPEG yuvj420p (full range)")
        try assertClose(Clips.make("photo-720p-nv12.mkv", still + ["-c:v", "rawvideo", "-pix_fmt", "nv12"]), 640, 360,
                        "a photograph, raw NV12")
    }

    /// Its plain C, SSE2 and AVX2 loops give the same bytes (the CPU's best is what runs; the
    /// others would otherwise go untested on this machine).
    func testEveryInstructionSetGivesTheSameBytes() throws {
        let sd = try TestClips.moving(size: "854x480", seconds: 1)
        let hd = try TestClips.moving(size: "1280x720", seconds: 1)
        // 3:1, 4:3 with an odd crop, nearly 2:1, and 2:1 (AVX2's pair loop in the middle).
        let cases = [(try Clips.fullHD(), 640, 360, 480), (sd, 640, 360, 470), (sd, 426, 240, 426), (hd, 640, 360, 480), (hd, 640, 360, 640)]
        for (path, width, height, shown) in cases {
            let decoders = try [FusedConverterLevel.plainC, .sse2, .avx2].map { level in
                try VideoDecoder(path: path, outputSize: { _ in (width, height) }, shownWidth: shown, hardware: .off, threads: 1,
                                 limits: VideoLimits(), fused: level, isCancelled: { false })
            }
            for n in 0..<2 {
                let frames = try decoders.map { try XCTUnwrap($0.nextFrame()).texture }
                let columns = (width - shown) / 2 ..< (width + shown) / 2
                for (level, frame) in frames.enumerated().dropFirst() {
                    let differing = PixelComparison.differences(frame.pixels, stride: frame.width, frames[0].pixels, stride: frames[0].width,
                                                                columns: columns, rows: 0..<height)
                    XCTAssertEqual(differing.count, 0, "\(path) at \(width)×\(height), frame \(n): level \(level) differs from plain C, first "
                                   + differing.first.map(\.description).joined(separator: " "))
                }
            }
        }
    }

    /// What the fused converter does not cover goes through libswscale as before.
    func testLibswscaleStillConvertsWhatTheFusedConverterDoesNotCover() throws {
        func fused(_ path: String, _ width: Int, _ height: Int) throws -> Bool {
            let decoder = try VideoDecoder(path: path, outputWidth: width, outputHeight: height, hardware: .off)
            _ = try XCTUnwrap(decoder.nextFrame())
            return decoder.lastFrameWasFused
        }
        let full = try Clips.fullHD()
        XCTAssertTrue(try fused(full, 640, 360))
        XCTAssertFalse(try fused(full, 641, 360), "an odd width")
        XCTAssertFalse(try fused(full, 1920, 1080), "no downscale (1:1)")
        XCTAssertFalse(try fused(full, 2560, 1440), "an upscale")
        XCTAssertFalse(try fused(full, 240, 135), "8:1, beyond the filter's taps")
        let yuv444 = try Clips.make("testsrc2-yuv444.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=1",
                                                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv444p"])
        XCTAssertFalse(try fused(yuv444, 160, 120), "4:4:4")
    }
}
