import Foundation
import Glibc
import LinuxSystem
import TestSupport
import XCTest
@testable import Kiosk

/// `StickBundle.copyToIncoming` (docs/updates.md, "A bundle on a USB stick"): a copy that fails
/// says why in the same words as ever, and a failed system call keeps its errno
/// (`SystemCallError`) in the `CopyFailure` until it is printed.
final class StickBundleTests: XCTestCase {
    var scratch: ScratchFolder!
    var folder: String { scratch.path }
    var paths: UpdatePaths { UpdatePaths(folder: folder + "/update") }

    override func setUpWithError() throws { scratch = try ScratchFolder("StickBundleTests") }
    override func tearDown() { scratch?.remove() }

    /// The failure `body` threw; fails the test when it threw none.
    func failure(_ body: () throws(StickBundle.CopyFailure) -> String, file: StaticString = #filePath, line: UInt = #line)
        -> StickBundle.CopyFailure? {
        do {
            let copy = try body()
            XCTFail("copied to \(copy); a failure was expected", file: file, line: line)
        } catch {
            return error
        }
        return nil
    }

    func testABundleIsCopiedWholeIntoIncoming() throws {
        let bundle = try scratch.write("kiosk-carousel-0.9.0-amd64.raucb", String(repeating: "bundle ", count: 100_000))
        let copy = try StickBundle.copyToIncoming(bundle, paths: paths)
        XCTAssertEqual(copy, paths.incoming + "/kiosk-carousel-0.9.0-amd64.raucb")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: bundle)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: paths.incoming), ["kiosk-carousel-0.9.0-amd64.raucb"])
    }

    /// A bundle gone from the stick: `stat`'s ENOENT, printed as before.
    func testAMissingBundleKeepsStatsErrno() throws {
        let gone = folder + "/gone.raucb"
        guard case .unreadable(let error)? = failure({ () throws(StickBundle.CopyFailure) in try StickBundle.copyToIncoming(gone, paths: paths) }) else {
            return XCTFail("not .unreadable")
        }
        XCTAssertEqual(error, SystemCallError(call: "stat", errno: ENOENT, subject: gone))
        XCTAssertEqual("\(StickBundle.CopyFailure.unreadable(error))", "\(gone): stat: No such file or directory")
    }

    /// A read that fails part-way (here a folder named like a bundle: `read` gives EISDIR): the
    /// errno of the read, printed after the words the screen has always shown, and no `.part` left.
    func testAReadThatFailsKeepsItsErrnoAndLeavesNoPart() throws {
        let bundle = folder + "/folder.raucb"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: false)
        let thrown = failure({ () throws(StickBundle.CopyFailure) in try StickBundle.copyToIncoming(bundle, paths: paths) })
        guard case .copyFailed(let error)? = thrown else { return XCTFail("not .copyFailed: \(String(describing: thrown))") }
        XCTAssertEqual(error.errno, EISDIR)
        XCTAssertEqual(error.call, "read")
        XCTAssertEqual("\(thrown!)", "the stick could not be read to the end (was it pulled out?): \(bundle): read: Is a directory")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: paths.incoming), [], "no .part left")
    }

    /// The texts of the failures that are not system calls, unchanged.
    func testTheOtherFailuresSayWhatTheyAlwaysSaid() {
        XCTAssertEqual("\(StickBundle.CopyFailure.noSpace(free: 5 << 20, size: 300 << 20))",
                       "not enough free space for it: 5.0 MiB free, the bundle is 300.0 MiB")
        XCTAssertEqual("\(StickBundle.CopyFailure.shortRead(bundle: "/media/u.raucb", copied: 10, size: 20))",
                       "/media/u.raucb: 10 of 20 bytes read (was the stick pulled out?)")
    }
}
