import Foundation
import XCTest
@testable import Kiosk

/// The programs the updater and the USB import run (`ChildProcess`: `posix_spawn` and pipes, no
/// Foundation `Process`, whose run loop spins in the import unit's sandbox): their exit status,
/// both outputs whole, a signal's end, and `stopWhen`.
final class ChildProcessTests: XCTestCase {
    func testTheStatusAndBothOutputsComeBack() throws {
        let r = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.output, "out\n")
        XCTAssertEqual(r.errors, "err\n")
        XCTAssertNil(r.stopped)
    }

    /// More than a pipe holds on both outputs at once: read as it comes, neither side blocks.
    func testAChattyChildOnBothOutputsDoesNotBlock() throws {
        let r = try ChildProcess.run(["sh", "-c", "head -c 300000 /dev/zero | tr '\\\\0' a; head -c 300000 /dev/zero | tr '\\\\0' b >&2"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.output.utf8.count, 300_000)
        XCTAssertEqual(r.errors.utf8.count, 300_000)
    }

    func testASignalEndsAs128PlusItsNumber() throws {
        XCTAssertEqual(try ChildProcess.run(["sh", "-c", "kill -TERM $$"]).status, 128 + SIGTERM)
    }

    func testAProgramThatIsNotThereThrows() {
        XCTAssertThrowsError(try ChildProcess.run(["no-such-program-\(UUID().uuidString)"]))
    }

    /// A reason from `stopWhen` ends the child and what it started (its process group), and is
    /// what `stopped` says; stdin is /dev/null (a child reading it sees its end at once).
    func testStopWhenEndsTheChildAndItsChildren() throws {
        var asked = 0
        let r = try ChildProcess.run(["sh", "-c", "cat; sleep 600 & sleep 600"], stopWhen: {
            asked += 1
            return asked >= 2 ? "enough" : nil
        })
        XCTAssertEqual(r.stopped, "enough")
        XCTAssertEqual(r.status, 128 + SIGKILL)
    }

    func testTheEnvironmentIsTheOneGiven() throws {
        let r = try ChildProcess.run(["/bin/sh", "-c", "echo \"$ONLY_THIS\""], environment: ["ONLY_THIS": "yes", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.output, "yes\n")
    }
}
