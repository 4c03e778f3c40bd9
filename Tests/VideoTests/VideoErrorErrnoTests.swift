import Foundation
import Glibc
import XCTest
@testable import Video

/// A video file that cannot be read keeps the errno (or FFmpeg's `AVERROR` code) as a number;
/// `cannot read the file (strerror)` is made only when printed (issue 28 §4).
final class VideoErrorErrnoTests: XCTestCase {
    func testTheErrnoIsKeptAndTheWordsAreUnchanged() {
        let e = VideoError(path: "a.mp4", kind: .unreadable, cannot: "cannot read the file", errno: EIO)
        XCTAssertEqual(e.errno, EIO)
        XCTAssertEqual(e.description, "a.mp4: cannot read the file (Input/output error)")
        XCTAssertNil(VideoError(path: "b.mp4", kind: .corrupt, reason: "damaged").errno)
        XCTAssertEqual(VideoError(path: "b.mp4", kind: .corrupt, reason: "damaged").reason, "damaged")
    }

    /// An FFmpeg call's failure keeps its `AVERROR` code as a number; FFmpeg's message is made
    /// only when printed, in the same place as before.
    func testTheFFmpegCodeIsKeptAndTheWordsAreUnchanged() {
        let eio: Int32 = -EIO   // AVERROR(EIO)
        let e = VideoError(path: "c.mp4", kind: .corrupt, failed: "the file ends in damaged or missing data after 3 frames",
                           ffmpegCode: eio, then: "; it may be truncated")
        XCTAssertEqual(e.ffmpegCode, eio)
        XCTAssertNil(e.errno)
        XCTAssertEqual(e.description, "c.mp4: the file ends in damaged or missing data after 3 frames (Input/output error); it may be truncated")
        XCTAssertEqual(VideoError(path: "d.mp4", kind: .corrupt, failed: "cannot seek back to the start of the clip", ffmpegCode: eio).reason,
                       "cannot seek back to the start of the clip (Input/output error)")
    }

    func testAPathThroughAFileGivesItsErrno() throws {
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID().uuidString)").path
        XCTAssertTrue(FileManager.default.createFile(atPath: plain, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: plain) }
        XCTAssertThrowsError(try VideoProbe.probe(path: plain + "/clip.mp4")) { error in
            let e = error as? VideoError
            XCTAssertEqual(e?.kind, .unreadable)
            XCTAssertEqual(e?.errno, ENOTDIR)
            XCTAssertEqual("\(error)", "\(plain)/clip.mp4: cannot read the file (Not a directory)")
        }
    }
}
