import LinuxSystem
@testable import Video
import XCTest

/// Decode cost on this machine, when asked for: `VIDEO_BENCH=1 swift test --filter VideoTests.BenchTests`.
/// (Skipped otherwise: it encodes 720p and 1080p clips, several seconds on a small machine.)
final class BenchTests: XCTestCase {
    func testDecodeMillisecondsPerFrame() throws {
        guard ProcessInfo.processInfo.environment["VIDEO_BENCH"] == "1" else {
            throw XCTSkip("set VIDEO_BENCH=1 to measure decode time")
        }
        for (name, size) in [("480p", "854x480"), ("720p", "1280x720"), ("1080p", "1920x1080")] {
            // x264's "veryfast" (CABAC, deblocking, B-frames): closer to real clips than ultrafast.
            let path = try Clips.make("bench-\(name).mp4", ["-f", "lavfi", "-i", "testsrc2=s=\(size):r=30:d=4",
                                                             "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
            for threads in [1, 2] {
                let scaled = try measure(path: path, threads: threads, scale: true)
                let decodeOnly = try measure(path: path, threads: threads, scale: false)
                print(String(format: "bench video %@ H.264 -> 480x360, %d thread(s): %.2f ms/frame decode+scale, %.2f ms/frame decode only (%d frames)",
                             name, threads, scaled.ms, decodeOnly.ms, scaled.frames))
            }
        }
    }

    private func measure(path: String, threads: Int, scale: Bool) throws -> (ms: Double, frames: Int) {
        let decoder = try VideoDecoder(path: path, outputWidth: 480, outputHeight: 360, hardware: .off, threads: threads)
        let start = monotonicNow()
        var frames = 0
        if scale {
            while try decoder.nextFrame() != nil { frames += 1 }
        } else {
            while try decoder.skipFrame() != nil { frames += 1 }
        }
        return ((monotonicNow() - start) * 1000 / Double(max(frames, 1)), frames)
    }
}
