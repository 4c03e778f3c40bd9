import Foundation
import Glibc
import LinuxSystem
import TestSupport
import XCTest
@testable import Kiosk

/// The reboot into an installed update waits for a quiet moment (issue 29 §2 "When"): the
/// kiosk's `state` says whether it is in use; never under a finger or a program it started.
final class QuietMomentTests: XCTestCase {
    let quiet = QuietMoment(idleSeconds: 300)

    func testTheStateReplyDecides() {
        func judge(_ fields: String) -> QuietMoment.Verdict {
            quiet.judge(stateReply: "{\"reply\":\"state\",\"ok\":true\(fields)}", now: 10_000)
        }
        XCTAssertEqual(judge(",\"foreground\":true,\"blanked\":true"), .init(quiet: false, reason: "a program the kiosk started has the screen"))
        XCTAssertEqual(judge(",\"foreground\":false,\"blanked\":true,\"last_input_time\":9999"), .init(quiet: true, reason: "the screen is blanked"))
        XCTAssertEqual(judge(",\"schedule_open\":false,\"last_input_time\":9999"), .init(quiet: true, reason: "outside the schedule's opening hours"))
        XCTAssertEqual(judge(",\"schedule_open\":true,\"last_input_time\":9990"), .init(quiet: false, reason: "it was used 10 s ago"))
        XCTAssertEqual(judge(",\"last_input_time\":9600"), .init(quiet: true, reason: "nobody has touched it for 400 s"))
        XCTAssertEqual(judge(",\"last_input_time\":null"), .init(quiet: true, reason: "nobody has touched it since it started"))
        XCTAssertFalse(quiet.judge(stateReply: "garbage", now: 0).quiet)
        XCTAssertFalse(quiet.ask(socket: nil, now: 0).quiet, "no socket: nobody to ask, no reboot")
    }

    /// A kiosk that is not running (no socket file) is quiet; one that answers is asked.
    func testTheSocketIsAsked() throws {
        let scratch = try ScratchFolder("QuietMomentTests")
        defer { scratch.remove() }
        let path = scratch.path + "/control.sock"
        XCTAssertEqual(quiet.ask(socket: path, now: 0).quiet, true)
        XCTAssertTrue(quiet.ask(socket: path, now: 0).reason.hasPrefix("the kiosk is not running"))
        let listener = serveOneState(at: path, reply: #"{"reply":"state","ok":true,"foreground":false,"blanked":false,"last_input_time":9990}"#)
        defer { close(listener) }
        XCTAssertEqual(quiet.ask(socket: path, now: 10_000), .init(quiet: false, reason: "it was used 10 s ago"))
    }

    /// A kiosk's control socket at `path` that answers one request with `reply`, on a thread;
    /// `thenGone`: the kiosk then goes away (the socket closed and removed) and `gone` is
    /// fulfilled. Returns the listening descriptor.
    private func serveOneState(at path: String, reply: String, thenGone gone: XCTestExpectation? = nil) -> Int32 {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(UnixSocketAddress.with(path) { bind(listener, $0, $1) }, 0)
        XCTAssertEqual(listen(listener, 1), 0)
        Thread {
            let c = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 256)
            _ = read(c, &buffer, buffer.count)
            let bytes = Array((reply + "\n").utf8)
            _ = write(c, bytes, bytes.count)
            close(c)
            if let gone {
                close(listener)
                unlink(path)
                gone.fulfill()
            }
        }.start()
        return listener
    }

    /// A reboot command that writes its arguments to the returned file instead.
    private func fakeReboot(in scratch: ScratchFolder) throws -> (command: String, rebooted: String) {
        let rebooted = scratch.path + "/rebooted"
        let fake = try scratch.write("reboot", "#!/bin/sh\necho \"$@\" > '\(rebooted)'\n")
        chmod(fake, 0o755)
        return (fake, rebooted)
    }

    /// `update reboot-when-quiet`: nothing pending, nothing done; pending from this boot and the
    /// kiosk not running: the reboot command runs; pending from an earlier boot (its slot was
    /// tried, or rolled back from): no reboot, and the file is removed.
    func testTheCommandRebootsOnlyForAnUpdateInstalledInThisBootAtAQuietMoment() throws {
        let scratch = try ScratchFolder("QuietMomentCommand")
        defer { scratch.remove() }
        let (fake, rebooted) = try fakeReboot(in: scratch)
        let config = try scratch.write("config.toml", "[control]\nsocket = \"\(scratch.path)/control.sock\"\n")
        let pending = scratch.path + "/update/pending.json"
        let arguments = ["update", "reboot-when-quiet", "--config", config, "--state-dir", scratch.path + "/update",
                         "--reboot-command", fake + " now please"]
        XCTAssertEqual(try ProductBinary.run(arguments).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: rebooted), "nothing pending")
        try FileManager.default.createDirectory(atPath: scratch.path + "/update", withIntermediateDirectories: true)

        let thisBoot = try XCTUnwrap(SystemIdentity().bootID, "the kernel's boot_id")
        for earlier in [PendingReboot(version: "9.9.9", boot: "00000000-0000-0000-0000-000000000000"), PendingReboot(version: "9.9.9", boot: nil)] {
            try StatusFile.write(earlier, to: pending)
            let result = try ProductBinary.run(arguments)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertFalse(FileManager.default.fileExists(atPath: rebooted), "installed before this boot: \(earlier)")
            XCTAssertTrue(result.errors.contains("version 9.9.9 was installed before this boot"), result.errors)
            XCTAssertFalse(FileManager.default.fileExists(atPath: pending), "a pending.json of an earlier boot is removed")
        }

        try StatusFile.write(PendingReboot(version: "9.9.9", boot: thisBoot), to: pending)
        let result = try ProductBinary.run(arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.errors.contains("rebooting into version 9.9.9: the kiosk is not running"), result.errors)
        XCTAssertEqual(try String(contentsOfFile: rebooted, encoding: .utf8), "now please\n")
    }

    /// `--wait`: a kiosk in use is asked again until it is quiet (here: a program it started
    /// has the screen at the first ask; then the kiosk is gone), and then the reboot runs.
    func testWaitAsksAgainUntilTheKioskIsQuiet() throws {
        let scratch = try ScratchFolder("QuietMomentWait")
        defer { scratch.remove() }
        let (fake, rebooted) = try fakeReboot(in: scratch)
        let path = scratch.path + "/control.sock"
        let config = try scratch.write("config.toml", "[control]\nsocket = \"\(path)\"\n")
        try FileManager.default.createDirectory(atPath: scratch.path + "/update", withIntermediateDirectories: true)
        try StatusFile.write(PendingReboot(version: "9.9.9", boot: SystemIdentity().bootID), to: scratch.path + "/update/pending.json")
        let asked = expectation(description: "the kiosk asked once")
        // A program the kiosk started has the screen at the first ask; then the kiosk is gone.
        _ = serveOneState(at: path, reply: #"{"reply":"state","ok":true,"foreground":true,"blanked":false}"#, thenGone: asked)
        let result = try ProductBinary.run(["update", "reboot-when-quiet", "--config", config, "--state-dir", scratch.path + "/update",
                                            "--wait", "0.2", "--reboot-command", fake])
        wait(for: [asked], timeout: 1)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.errors.contains("version 9.9.9 waits for a quiet moment: a program the kiosk started has the screen"), result.errors)
        XCTAssertTrue(result.errors.contains("rebooting into version 9.9.9: the kiosk is not running"), result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: rebooted))
    }
}
