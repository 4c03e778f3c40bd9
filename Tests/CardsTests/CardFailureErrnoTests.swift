import Foundation
import Glibc
import XCTest
@testable import Cards

/// A picture that cannot be read keeps the errno as a number; its words are made only when the
/// failure is printed (issue 28 §4), and read as before.
final class CardFailureErrnoTests: XCTestCase {
    let tmp = TempDir()

    func testTheErrnoIsKeptAndTheWordsAreUnchanged() {
        let io = CardFailure(file: "a.jpg", errno: EIO)
        XCTAssertEqual(io.errno, EIO)
        XCTAssertEqual(io.description, "a.jpg: cannot read: Input/output error")
        XCTAssertFalse(io.missing)
        XCTAssertEqual(CardFailure(file: "b.jpg", errno: ENOENT).reason, "file not found")
        XCTAssertTrue(CardFailure(file: "b.jpg", errno: ENOENT).missing)
        XCTAssertTrue(CardFailure(file: "c/d.jpg", errno: ENOTDIR).missing)
        XCTAssertEqual(CardFailure(file: "e.jpg", errno: EACCES).reason, "permission denied (the kiosk user cannot read it)")
        XCTAssertNil(CardFailure(file: "f.jpg", reason: "broken PNG header (x)").errno)
    }

    /// A clip whose poster frame cannot be read: the failure carries the `VideoError` itself
    /// (file, kind, errno) until it is printed, in the same words as before.
    func testAClipThatCannotBeOpenedCarriesItsVideoError() throws {
        let loop = tmp.file("loop.mp4")
        XCTAssertEqual(symlink(loop, loop), 0)
        XCTAssertThrowsError(try VideoStill.poster(path: loop, fit: .cover, boxWidth: 64, boxHeight: 48, limits: ImageLimits())) { e in
            guard let failure = e as? CardFailure else { return XCTFail("\(e)") }
            XCTAssertEqual(failure.file, loop)
            XCTAssertEqual(failure.video?.path, loop)
            XCTAssertEqual(failure.video?.kind, .unreadable)
            XCTAssertEqual(failure.video?.errno, ELOOP)
            XCTAssertEqual(failure.errno, ELOOP)
            XCTAssertFalse(failure.missing)
            XCTAssertEqual("\(failure)", "\(loop): cannot read the file (Too many levels of symbolic links)")
        }
        let gone = tmp.file("gone.mp4")
        XCTAssertThrowsError(try VideoStill.poster(path: gone, fit: .cover, boxWidth: 64, boxHeight: 48, limits: ImageLimits())) { e in
            XCTAssertEqual((e as? CardFailure)?.video?.path, gone)
            XCTAssertEqual((e as? CardFailure)?.reason, "no such file")
        }
    }

    func testAFileThatCannotBeOpenedGivesItsErrno() throws {
        let plain = tmp.file("plain.jpg")
        XCTAssertTrue(FileManager.default.createFile(atPath: plain, contents: Data([1])))
        XCTAssertThrowsError(try ImageFile.read(plain + "/inside.jpg", limits: ImageLimits())) { e in
            XCTAssertEqual((e as? CardFailure)?.errno, ENOTDIR)
            XCTAssertEqual("\(e)", "\(plain)/inside.jpg: a folder in the path does not exist")
        }
    }
}
