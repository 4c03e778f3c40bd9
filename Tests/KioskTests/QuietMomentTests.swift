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
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        XCTAssertEqual(UnixSocketAddress.with(path) { bind(listener, $0, $1) }, 0)
        XCTAssertEqual(listen(listener, 1), 0)
        let served = Thread {
            let c = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 256)
            _ = read(c, &buffer, buffer.count)
            let reply = Array("{\"reply\":\"state\",\"ok\":true,\"foreground\":false,\"blanked\":false,\"last_input_time\":9990}\n".utf8)
            _ = write(c, reply, reply.count)
            close(c)
        }
        served.start()
        XCTAssertEqual(quiet.ask(socket: path, now: 10_000), .init(quiet: false, reason: "it was used 10 s ago"))
    }

    /// `update reboot-when-quiet`: nothing pending, nothing done; pending and the kiosk not
    /// running: the reboot command runs.
    func testTheCommandRebootsOnlyForAPendingUpdateAtAQuietMoment() throws {
        let scratch = try ScratchFolder("QuietMomentCommand")
        defer { scratch.remove() }
        let rebooted = scratch.path + "/rebooted"
        let fake = try scratch.write("reboot", "#!/bin/sh\necho \"$@\" > '\(rebooted)'\n")
        chmod(fake, 0o755)
        let config = try scratch.write("config.toml", "[control]\nsocket = \"\(scratch.path)/control.sock\"\n")
        let arguments = ["update", "reboot-when-quiet", "--config", config, "--state-dir", scratch.path + "/update",
                         "--reboot-command", fake + " now please"]
        XCTAssertEqual(try ProductBinary.run(arguments).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: rebooted), "nothing pending")
        try FileManager.default.createDirectory(atPath: scratch.path + "/update", withIntermediateDirectories: true)
        try StatusFile.write(PendingReboot(version: "9.9.9"), to: scratch.path + "/update/pending.json")
        let result = try ProductBinary.run(arguments)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.errors.contains("rebooting into version 9.9.9: the kiosk is not running"), result.errors)
        XCTAssertEqual(try String(contentsOfFile: rebooted, encoding: .utf8), "now please\n")
    }
}
