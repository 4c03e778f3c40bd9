import Foundation
import TestSupport
import XCTest

/// Test clips, made by the `ffmpeg` command from lavfi sources into a temporary folder the first
/// time a test asks for one (never committed). Tiny sizes and `-preset ultrafast`: all of them
/// together take a few seconds to make.
enum Clips {
    /// Runs `ffmpeg` with `arguments` writing `name` in the run's clip folder (once); returns the
    /// path. A missing `ffmpeg` or a failed run fails the test with what to do.
    static func make(_ name: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        do {
            return try TestClips.make(name, arguments)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            throw error
        }
    }

    static var folder: String { TestClips.folder }

    static let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]

    /// 1 s of red then 1 s of blue, 64×48 at 10 fps, H.264 in MP4.
    static func redThenBlue() throws -> String {
        try make("red-blue.mp4", ["-f", "lavfi", "-i", "color=c=red:s=64x48:r=10:d=1",
                                  "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=10:d=1",
                                  "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0"] + x264)
    }

    /// A moving test pattern, 160×120 at 10 fps for 3 s (30 frames), H.264 in MP4; `faststart`
    /// puts the index (moov) at the front.
    static func moving(faststart: Bool = false) throws -> String {
        try make(faststart ? "moving-faststart.mp4" : "moving.mp4",
                 ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=3"] + x264 + (faststart ? ["-movflags", "+faststart"] : []))
    }

    /// 10 minutes of a 64×48 test pattern at 2 fps (1200 frames), index at the front.
    static func tenMinutes() throws -> String {
        try make("ten-minutes.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=2:d=600"] + x264 + ["-g", "20", "-movflags", "+faststart"])
    }

    /// The same 10 minutes with the index (moov) at the end, as `ffmpeg` writes MP4 by default.
    static func tenMinutesIndexAtEnd() throws -> String {
        try make("ten-minutes-moov-at-end.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=2:d=600"] + x264 + ["-g", "20"])
    }

    /// One frame of green, 32×32.
    static func singleFrame() throws -> String {
        try make("single.mp4", ["-f", "lavfi", "-i", "color=c=green:s=32x32:r=25", "-frames:v", "1"] + x264)
    }

    /// 0.02 s of yellow at 10 fps: shorter than one frame.
    static func shorterThanAFrame() throws -> String {
        try make("short.mp4", ["-f", "lavfi", "-i", "color=c=yellow:s=32x32:r=10:d=0.02"] + x264)
    }

    /// 1920×1080 test pattern, 10 fps, 1 s.
    static func fullHD() throws -> String {
        try make("full-hd.mp4", ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=10:d=1"] + x264)
    }

    /// VP9 in WebM, named .mp4 (the extension lies).
    static func webmNamedMP4() throws -> String {
        try make("really-webm.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1", "-c:v", "libvpx-vp9",
                                     "-deadline", "realtime", "-cpu-used", "8", "-b:v", "100k", "-f", "webm"])
    }

    /// A PNG image named .mp4.
    static func pngNamedMP4() throws -> String {
        try make("really-png.mp4", ["-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1",
                                    "-c:v", "png", "-f", "image2pipe"])
    }

    /// A sine tone, audio only, in MP4.
    static func audioOnly() throws -> String {
        try make("audio-only.mp4", ["-f", "lavfi", "-i", "sine=f=440:d=1", "-c:a", "aac"])
    }

    /// A text file named .mp4.
    static func textNamedMP4() throws -> String {
        let path = "\(folder)/really-text.mp4"
        try "This is not a video.\nJust a few lines of text.\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 20 s of a 64×48 test pattern at 10 fps, index at the front, whose media data from 30 % of
    /// the file on is overwritten with 0xFF: the container reads, the packets after that point do
    /// not decode (about 140 of them in a row).
    static func damagedMidway() throws -> String {
        let clean = try make("damaged-source.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=20"] + x264
                             + ["-movflags", "+faststart"])
        var data = try Data(contentsOf: URL(fileURLWithPath: clean))
        let from = data.count * 3 / 10
        data.replaceSubrange(from..<data.count, with: Data(repeating: 0xFF, count: data.count - from))
        let out = "\(folder)/damaged-midway.mp4"
        try data.write(to: URL(fileURLWithPath: out))
        return out
    }

    /// The first half of `path`'s bytes, as a new file.
    static func truncated(_ path: String, name: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let out = "\(folder)/\(name)"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: out))
        return out
    }
}

/// Red, green and blue of a premultiplied ARGB pixel.
func rgb(_ pixel: UInt32) -> (r: Int, g: Int, b: Int, a: Int) {
    (Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF), Int(pixel >> 24))
}
