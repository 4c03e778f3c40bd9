import Foundation
import XCTest
@testable import Kiosk

/// A FAT stick read by mtools without a kernel mount (docs/usb.md): mdir's listing summed
/// before the copy, and the sandbox the mtools programs run in.
final class FATStickTests: XCTestCase {
    /// `mdir -/ -a` of a stick with a hidden file, a long UTF-8 name and a sub-folder (mtools
    /// 4.0.32, LC_ALL=C.UTF-8), as it printed it.
    let listing = """
         Volume in drive : is STICK      
         Volume Serial Number is E1DA-FA89
        Directory for ::/kiosk-carousel

        .            <DIR>     2026-11-29   9:19 
        ..           <DIR>     2026-11-29   9:19 
        HIDDEN~1             0 2026-11-29   9:19  .hidden
        pictures     <DIR>     2026-11-29   9:19 
        CONFIG~1 TOM         3 2026-11-29   9:19  config.toml
                5 files                   3 bytes

        Directory for ::/kiosk-carousel/pictures

        .            <DIR>     2026-11-29   9:19 
        ..           <DIR>     2026-11-29   9:19 
        CAFÉ_X~1 JPG      5000 2026-11-29   9:19  café ∕x.jpg
        sub          <DIR>     2026-11-29   9:19 
                4 files               5 000 bytes

        Directory for ::/kiosk-carousel/pictures/sub

        .            <DIR>     2026-11-29   9:19 
        ..           <DIR>     2026-11-29   9:19 
        b        png       300 2026-11-29   9:19 
                3 files                 300 bytes

        Total files listed:
               12 files               5 303 bytes
                                 41 273 344 bytes free

        """

    func testTheListingGivesTheFilesTheirBytesAndWhetherThereIsAConfig() {
        XCTAssertEqual(FATStick.parse(mdir: listing), FATStick.Summary(files: 4, bytes: 5303, hasConfig: true))
    }

    /// Two long names of one folder that differ only in case (a crafted directory entry: the
    /// FAT driver never writes them) are named, with their folder; the same name in two folders
    /// and a long name beside an 8.3 one are not a collision.
    func testNamesThatDifferOnlyInCaseAreNamed() {
        let crafted = """
            Directory for ::/kiosk-carousel

            .            <DIR>     2026-11-29  10:39 
            ..           <DIR>     2026-11-29  10:39 
            pictures     <DIR>     2026-11-29  10:39 
            CONFIG~1 TOM         2 2026-11-29  10:39  config.toml
            X        PNG         2 2026-11-29  10:39 
                    5 files                   4 bytes

            Directory for ::/kiosk-carousel/pictures

            .            <DIR>     2026-11-29  10:39 
            ..           <DIR>     2026-11-29  10:39 
            COLLID~1 PNG         2 2026-11-29  10:39  collide-a.png
            COLLID~2 PNG         2 2026-11-29  10:39  COLLIDE-A.PNG
            X        PNG         2 2026-11-29  10:39 
            XX       PNG         2 2026-11-29  10:39  x.png
                    6 files                   8 bytes

            Total files listed:
                   11 files                  12 bytes
            """
        let summary = FATStick.parse(mdir: crafted)
        XCTAssertEqual(summary?.files, 6)
        XCTAssertEqual(summary?.caseCollisions, [
            "kiosk-carousel/pictures/COLLIDE-A.PNG: the same name as collide-a.png but for case",
            "kiosk-carousel/pictures/x.png: the same name as X.PNG but for case",
        ])
        XCTAssertEqual(FATStick.parse(mdir: listing)?.caseCollisions, [])
        XCTAssertEqual(FATStick.entryName("b        png       300 2026-11-29   9:19 "), "b.png")
        XCTAssertEqual(FATStick.entryName("UPDATE       <DIR>     2026-11-29   9:20  update"), "update")
        XCTAssertEqual(FATStick.entryName("pictures     <DIR>     2026-11-29  10:39 "), "pictures")
        XCTAssertNil(FATStick.entryName("        5 files                   4 bytes"))
    }

    func testAFolderWithoutSubfoldersHasNoTotalLine() {
        let one = """
            Directory for ::/kiosk-carousel

            .            <DIR>     2026-11-29   9:20 
            ..           <DIR>     2026-11-29   9:20 
            UPDATE       <DIR>     2026-11-29   9:20  update
                    3 files                   0 bytes
                                     41 272 832 bytes free
            """
        XCTAssertEqual(FATStick.parse(mdir: one), FATStick.Summary(files: 0, bytes: 0, hasConfig: false))
    }

    func testAListingWithoutASummaryIsNotTaken() {
        XCTAssertNil(FATStick.parse(mdir: "init :: could not read boot sector\n"))
        XCTAssertNil(FATStick.parse(mdir: ""))
    }

    func testTheSandboxIsADynamicUserWithoutNetworkOrCapabilitiesReadingOneDevice() {
        let argv = StickSandbox().command(unit: "u.service", program: "/usr/bin/mcopy", arguments: ["-i", "/dev/sdb1", "::/kiosk-carousel", "/s/"],
                                          device: "/dev/sdb1", writable: "/s", seconds: 90, output: ("/r/o", "/r/e"))
        XCTAssertEqual(argv.first, "systemd-run")
        XCTAssertEqual(Array(argv.suffix(6)), ["--", "/usr/bin/mcopy", "-i", "/dev/sdb1", "::/kiosk-carousel", "/s/"])
        for property in ["DynamicUser=yes", "SupplementaryGroups=kiosk-carousel-stick", "DevicePolicy=closed",
                         "DeviceAllow=/dev/sdb1 r", "PrivateNetwork=yes", "SystemCallFilter=@system-service",
                         "CapabilityBoundingSet=", "ReadWritePaths=/s", "RuntimeMaxSec=90"] {
            XCTAssertTrue(argv.contains("--property=" + property), property)
        }
        XCTAssertTrue(argv.contains("--unit=u.service"))
        XCTAssertTrue(argv.contains("--property=StandardOutput=truncate:/r/o") && argv.contains("--property=RemainAfterExit=yes"))
        XCTAssertTrue(argv.contains("--setenv=LC_ALL=C.UTF-8"))
        let listing = StickSandbox().command(unit: "l.service", program: "/usr/bin/mdir", arguments: [], device: "/dev/sdb1",
                                             writable: nil, seconds: 5, output: ("/r/o", "/r/e"))
        XCTAssertFalse(listing.contains { $0.hasPrefix("--property=ReadWritePaths") }, "a listing writes nowhere")
    }

    func testTheBytesReadSoFarAreTheFilesUnderTheStagingFolder() throws {
        let staging = NSTemporaryDirectory() + "fat-staging-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try FileManager.default.createDirectory(atPath: staging + "/kiosk-carousel/pictures", withIntermediateDirectories: true)
        try Data(count: 3).write(to: URL(fileURLWithPath: staging + "/kiosk-carousel/config.toml"))
        try Data(count: 5000).write(to: URL(fileURLWithPath: staging + "/kiosk-carousel/pictures/a.jpg"))
        try Data(count: 700).write(to: URL(fileURLWithPath: staging + "/update.raucb"))
        try FileManager.default.createSymbolicLink(atPath: staging + "/kiosk-carousel/link", withDestinationPath: "/etc/passwd")
        XCTAssertEqual(FATStick.bytes(under: staging), 5703, "regular files only, links not followed")
        XCTAssertEqual(FATStick.bytes(under: staging + "/missing"), 0)
    }

    /// The sandboxed program's run calls back while it runs (the FAT stick's read progress),
    /// and not after it ended: a systemctl that says "running" three times, then "exited".
    func testTheSandboxCallsBackWhileTheProgramRuns() throws {
        let dir = NSTemporaryDirectory() + "fat-sandbox-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let run = dir + "/systemd-run", ctl = dir + "/systemctl"
        try "#!/bin/sh\nexit 0\n".write(toFile: run, atomically: true, encoding: .utf8)
        try """
            #!/bin/sh
            [ "$1" = show ] || exit 0
            n=$(cat \(dir)/looks 2>/dev/null || echo 0); echo $((n + 1)) > \(dir)/looks
            if [ "$n" -lt 3 ]; then echo SubState=running; else printf 'SubState=exited\\nResult=success\\nExecMainCode=1\\nExecMainStatus=0\\n'; fi

            """.write(toFile: ctl, atomically: true, encoding: .utf8)
        chmod(run, 0o755); chmod(ctl, 0o755)
        var sandbox = StickSandbox()
        sandbox.systemdRun = run; sandbox.systemctl = ctl; sandbox.outputFolder = dir + "/out"
        var calls = 0
        let result = try sandbox.run(unit: "t.service", program: "/usr/bin/mcopy", arguments: [], device: "/dev/null",
                                     writable: nil, seconds: 10, whileRunning: { calls += 1 })
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(calls, 3, "once after each look that saw it running")
    }
}
