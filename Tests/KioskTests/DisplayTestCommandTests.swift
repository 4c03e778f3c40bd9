import Foundation
import TestSupport
import XCTest

/// `kiosk-carousel display-test` on a headless display (`KIOSK_DISPLAY_TEST_HEADLESS`), as the VM
/// tests run it on DRM and fbdev: the lines they wait for, the figures they parse, the exit code.
/// Nothing here depends on how fast the machine is: counts of frames are not asserted.
final class DisplayTestCommandTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var config = ""
    private let headless = ["KIOSK_DISPLAY_TEST_HEADLESS": "320x240"]

    override func setUpWithError() throws {
        scratch = try ScratchFolder("display-test")
        config = try scratch.write("carousel.toml", """
            [carousel]
            type = "linear"
            item_size = [80, 100]
            [[item]]
            title = "One"
            [[item]]
            title = "Two"
            [[item]]
            title = "Three"
            """)
    }

    override func tearDown() { scratch?.remove() }

    private func displayTest(_ arguments: [String]) throws -> ProductBinary.Result {
        try ProductBinary.run(["display-test", "--config", config] + arguments, environment: headless)
    }

    /// The value of `key` in the `stats` line.
    private func stat(_ key: String, in output: String) -> String? {
        let line = output.split(separator: "\n").first { $0.hasPrefix("stats ") } ?? ""
        return line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    func testARunShowsTheFirstFrameAndEndsWithItsFigures() throws {
        let r = try displayTest(["--seconds", "0.5"])
        XCTAssertEqual(r.status, 0, r.errors)
        let lines = r.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0 == "first frame presented" }.count, 1, r.output)
        XCTAssertEqual(lines.filter { $0.hasPrefix("== step ") }.map { $0.components(separatedBy: " (at").first! },
                       ["== step open the display", "== step first frame", "== step carousel", "== step close and restore"])
        XCTAssertEqual(stat("size", in: r.output), "320x240", r.output)
        XCTAssertEqual(stat("resizes", in: r.output), "0")
        XCTAssertEqual(stat("idle_frames", in: r.output), "0", "nothing moves: no frame is drawn for nothing")
        XCTAssertNil(stat("signal", in: r.output))
        XCTAssertEqual(lines.last, "restore: -")
    }

    /// A shot holds the clock: its step is announced, the screenshot asked for (outside kiosk-vm:
    /// said so on the error stream), and the run still ends normally after it.
    func testAShotIsTakenAndTheRunGoesOn() throws {
        let r = try displayTest(["--seconds", "0.6", "--shot", "0.2=middle"])
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.output.contains("== step shot middle"), r.output)
        XCTAssertTrue(r.errors.contains("display-test: not in kiosk-vm; no screenshot middle"), r.errors)
        XCTAssertNotNil(stat("frames", in: r.output), r.output)
    }

    /// The handover releases the display, runs the program and takes the display back. A signal
    /// the program sends display-test (pending while the program runs) ends the run with the
    /// figures and `signal=`, exit code 0. (The handover is looked at when the loop wakes: the
    /// scripted key still to come keeps it stepping, as the VM test's script does.)
    func testHandoverAndASignalEndTheRunInOrder() throws {
        let script = try scratch.write("keys.jsonl", #"{"t":20,"type":"key_down","key":"right"}"# + "\n")
        let r = try displayTest(["--seconds", "30", "--input", script, "--handover", "0.2=kill -TERM $PPID; exit 3"])
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.output.contains("display released; running: kill -TERM $PPID; exit 3\n"), r.output)
        XCTAssertTrue(r.output.contains("display taken back (the program exited with 3); wants a frame: false\n"), r.output)
        XCTAssertEqual(stat("signal", in: r.output), "15", r.output)
        XCTAssertTrue(r.output.hasSuffix("restore: -\n"), r.output)
    }

    func testTheSyntheticSceneReportsItsLine() throws {
        let r = try displayTest(["--scene", "bars", "--seconds", "0.3"])
        XCTAssertEqual(r.status, 0, r.errors)
        let line = try XCTUnwrap(r.output.split(separator: "\n").first { $0.hasPrefix("synthetic bars ") }, r.output)
        XCTAssertTrue(line.contains(" size=320x240 refresh=60.00 "), String(line))
        XCTAssertTrue(r.output.hasSuffix("restore: -\n"), r.output)
    }
}
