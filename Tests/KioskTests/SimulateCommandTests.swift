import Foundation
import Glibc
import TestSupport
import XCTest

/// `kiosk-carousel simulate` as a person runs it (the binary `swift build --build-tests` puts
/// next to the test bundle): its option checks, its shots and where it reads a script from.
final class SimulateCommandTests: CommandTestCase {
    override var configText: String { "[carousel]\ntick_hz = 10\n[[item]]\nid = \"a\"\n[[item]]\nid = \"b\"\n" }

    func simulate(_ arguments: [String], standardInput: Data? = nil) throws -> ProductBinary.Result {
        try ProductBinary.run(["simulate", "--config", config, "--size", "64x48"] + arguments, standardInput: standardInput)
    }

    /// A shot after --until was never written and the command exited 0 (issue 27): it is refused
    /// before anything runs, with simulate's usage, and nothing is written.
    func testShotAfterUntilIsRefusedBeforeRunning() throws {
        let r = try simulate(["--until", "1", "--shot", "2=\(folder)/late.png", "--events", folder + "/events.jsonl"])
        XCTAssertEqual(r.status, 64, r.errors)
        XCTAssertTrue(r.errors.hasPrefix("Error: --shot 2=\(folder)/late.png is after the end of the run (--until 1): give --until 2 or more\n"), r.errors)
        XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel simulate "), r.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/events.jsonl"), "nothing ran")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/late.png"))
    }

    /// Without --size, simulate draws at `[display] headless_size`, as `layout` lays out (issue 27:
    /// it drew 1280x720 whatever the file said); --size still wins.
    func testWithoutSizeTheScreenIsTheConfigsHeadlessSize() throws {
        let sized = try scratch.write("sized.toml", "[display]\nheadless_size = [96, 54]\n" + configText)
        for (extra, expected) in [([String](), [96, 54]), (["--size", "64x48"], [64, 48])] {
            let shot = folder + "/shot-\(expected[0]).png"
            let r = try ProductBinary.run(["simulate", "--config", sized, "--until", "0.5", "--shot", "0.5=\(shot)"] + extra)
            XCTAssertEqual(r.status, 0, r.errors)
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))
            let size = [16, 20].map { at in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }  // IHDR width, height
            XCTAssertEqual(size, expected, "\(extra)")
        }
        let layout = try ProductBinary.run(["layout", "--config", sized, "--scroll-offset", "0"])
        XCTAssertTrue(layout.output.hasPrefix("{\"view\":[96,54],"), "layout uses the same size: \(layout.output)")
    }

    /// Without --until the run lasts up to the last shot when that is after the default 5 s.
    func testWithoutUntilTheRunReachesTheLastShot() throws {
        let r = try simulate(["--shot", "7.5=\(folder)/late.png"])
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertEqual(r.output, folder + "/late.png\n")
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/late.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    /// A shot into a folder that does not exist: the path given and the reason, not Foundation's
    /// `Error Domain=NSCocoaErrorDomain Code=4 …`.
    func testShotIntoAMissingFolderNamesThePathAndTheReason() throws {
        let r = try simulate(["--until", "1", "--shot", "0.5=\(folder)/missing/a.png"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.errors, "Error: \(folder)/missing/a.png: cannot create the file (No such file or directory)\n")
    }

    /// An events file that cannot be created: the same shape.
    func testEventsFileThatCannotBeCreatedNamesThePathAndTheReason() throws {
        let r = try simulate(["--until", "1", "--events", folder + "/missing/events.jsonl"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.errors, "Error: \(folder)/missing/events.jsonl: cannot create the file (No such file or directory)\n")
    }

    /// The option checks print simulate's usage, not the top-level `kiosk-carousel <subcommand>`.
    func testOptionErrorsShowSimulatesUsage() throws {
        for args in [["--time-zone", "Nowhere/Atlantis"], ["--wall-clock", "yesterday"], ["--shot", "soon=a.png"],
                     ["--reload", "1"]] {
            let r = try simulate(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.errors)")
            XCTAssertTrue(r.errors.contains("Usage: kiosk-carousel simulate ["), "\(args): \(r.errors)")
            XCTAssertFalse(r.errors.contains("<subcommand>"), "\(args): \(r.errors)")
        }
    }

    /// `--input -` reads the script from standard input.
    func testInputFromStandardInput() throws {
        let script = "{\"t\":0.1,\"type\":\"key_down\",\"key\":\"right\"}\n{\"t\":0.15,\"type\":\"key_up\",\"key\":\"right\"}\n"
        let r = try simulate(["--input", "-", "--until", "2", "--events", "-"], standardInput: Data(script.utf8))
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.output.contains("\"event\":\"current_index_changed\",\"index\":1"), r.output)
        // A bad line is named as standard input's.
        let bad = try simulate(["--input", "-"], standardInput: Data("{\"t\":0}\n".utf8))
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.errors, "Error: standard input:1: missing \"type\"\n")
    }

    /// `--input <(…)`: a pipe by its path (here a FIFO, as bash's process substitution gives
    /// /dev/fd/63), read to its end.
    func testInputFromAPipeByItsPath() throws {
        let fifo = folder + "/script.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            // Blocks until simulate opens the FIFO for reading.
            let h = FileHandle(forWritingAtPath: fifo)
            h?.write(Data("{\"t\":0.1,\"type\":\"key_down\",\"key\":\"right\"}\n".utf8))
            try? h?.close()
        }
        writer.start()
        let r = try simulate(["--input", fifo, "--until", "2", "--events", "-"])
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.output.contains("\"event\":\"current_index_changed\",\"index\":1"), r.output)
    }

    /// A script that cannot be read: its path and the reason.
    func testUnreadableScriptNamesThePathAndTheReason() throws {
        let r = try simulate(["--input", folder + "/absent.jsonl"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.errors, "Error: \(folder)/absent.jsonl: cannot read the file (No such file or directory)\n")
    }
}
