import Foundation
import Glibc
import XCTest
@testable import Video

/// A video file that cannot be read keeps the errno as a number; `cannot read the file
/// (strerror)` is made only when printed (issue 28 §4).
final class VideoErrorErrnoTests: XCTestCase {
    func testTheErrnoIsKeptAndTheWordsAreUnchanged() {
        let e = VideoError(path: "a.mp4", kind: .unreadable, cannot: "cannot read the file", errno: EIO)
        XCTAssertEqual(e.errno, EIO)
        XCTAssertEqual(e.description, "a.mp4: cannot read the file (Input/output error)")
        XCTAssertNil(VideoError(path: "b.mp4", kind: .corrupt, reason: "damaged").errno)
        XCTAssertEqual(VideoError(path: "b.mp4", kind: .corrupt, reason: "damaged").reason, "damaged")
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
