import Foundation
import Glibc
import XCTest
@testable import Kiosk

/// A stick that cannot be mounted says why with the errno kept as a number until printed
/// (issue 28 §4); `mount(2)` is reached through `CLinux`.
final class MountFailureTests: XCTestCase {
    func testMessagesKeepTheirShape() {
        XCTAssertEqual(MountFailure(device: "/dev/sda1", reason: .mount(type: "vfat", errno: EACCES)).description,
                       "/dev/sda1: mount as vfat: Permission denied")
        XCTAssertEqual(MountFailure(device: "/dev/sda1", reason: .noMountPoint("/run/x/sda1-1")).description,
                       "/dev/sda1: cannot make the mount point /run/x/sda1-1")
        XCTAssertEqual(MountFailure(device: "/dev/sdb", reason: .noFileSystem(tried: ["vfat", "exfat"])).description,
                       "/dev/sdb: no file system this kernel can read (tried vfat, exfat)")
    }

    func testADeviceThatCannotBeMountedFailsWithTheErrnoOfTheFirstTypeTheKernelHas() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("mnt-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        // Not root: EPERM; root: the device is not there, ENOENT. Neither is "not this type", so
        // the first type this kernel has (which one depends on the machine) ends the tries.
        XCTAssertThrowsError(try StickMount(device: parent + "/no-such-device", under: parent)) { e in
            let failure = e as? MountFailure
            XCTAssertEqual(failure?.device, parent + "/no-such-device")
            guard case .mount(let type, let code)? = failure?.reason else { return XCTFail("\(e)") }
            XCTAssertTrue(StickMount.candidateTypes().contains(type), type)
            XCTAssertTrue([EPERM, ENOENT].contains(code), "\(e)")
            XCTAssertEqual("\(e)", "\(parent)/no-such-device: mount as \(type): \(String(cString: strerror(code)))")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent), [], "the mount point removed")
    }
}
