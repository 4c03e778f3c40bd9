import Glibc
import XCTest
@testable import Display

/// A display error from a failed call keeps the errno as a number; `WORDS: strerror` is made
/// only when printed (issue 28 §4).
final class DisplayErrorErrnoTests: XCTestCase {
    func testAnErrorWithoutAFailedCallHasNoErrno() {
        XCTAssertNil(DisplayError(.busy, "another program owns the display").errno)
        XCTAssertEqual(DisplayError("plain words").description, "plain words")
    }

    /// A display's own failure keeps the system call error behind it, errno and all, and puts
    /// its text in place only in `description`.
    func testTheUnderlyingSystemCallErrorIsKeptUntilPrinted() {
        let call = SystemCallError(call: "drmModePageFlip", errno: EIO)
        let flip = DisplayError(.failed, "page flip on HDMI-A-1 (/dev/dri/card0) failed", underlying: call)
        XCTAssertEqual(flip.errno, EIO)
        XCTAssertEqual(flip.underlying as? SystemCallError, call)
        XCTAssertEqual(flip.description, "page flip on HDMI-A-1 (/dev/dri/card0) failed: drmModePageFlip: Input/output error")

        let open = DisplayError(.noDevice, "cannot open /dev/fb0", underlying: SystemCallError(call: "open", errno: ENOENT),
                                parenthesized: true, advice: "the board has no framebuffer device")
        XCTAssertEqual(open.errno, ENOENT)
        XCTAssertEqual(open.description, "cannot open /dev/fb0 (open: No such file or directory): the board has no framebuffer device")

        let wrapped = DisplayError(.failed, "showing the first frame", underlying: flip)
        XCTAssertEqual(wrapped.errno, EIO, "through a display error too")
    }

    /// `auto` found neither device: the DRM error comes first, the framebuffer's follows, each
    /// kept whole.
    func testTheFallbacksFailureFollowsTheFirstOne() {
        let drm = DisplayError(.noDevice, "no DRM device in /dev/dri")
        let fb = DisplayError(.noDevice, "cannot open /dev/fb0", underlying: SystemCallError(call: "open", errno: ENOENT), parenthesized: true)
        let both = DisplayError(.noDevice, "no framebuffer either", underlying: fb, after: drm)
        XCTAssertEqual(both.description, "no DRM device in /dev/dri; no framebuffer either: cannot open /dev/fb0 (open: No such file or directory)")
        XCTAssertEqual(both.errno, ENOENT)
        XCTAssertEqual((both.firstFailure as? DisplayError)?.description, "no DRM device in /dev/dri")
    }
}
