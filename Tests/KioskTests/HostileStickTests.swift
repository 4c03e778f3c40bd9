import Foundation
import Glibc
import KioskConfig
import Logging
import XCTest
@testable import Kiosk

/// The defects `make hostile-sticks` (Tests/usb-hostile/, docs/usb.md "Hostile sticks") found in
/// the USB import, each acted out on a folder: what a stick's file system can hold that a
/// config must not make the import open, copy or print as it is.
final class HostileStickTests: XCTestCase {
    var fixture: StickFolder!
    var stick: String { fixture.stick }
    var content: String { fixture.content }

    override func setUpWithError() throws {
        fixture = try StickFolder()
        try fixture.write("pictures/p0.svg", StickFolder.picture)
    }

    override func tearDown() { fixture.remove() }

    func onStick(_ name: String, _ text: String) throws { try fixture.write(name, text) }

    func config(naming pictures: [String]) throws {
        try onStick("config.toml", (["pictures/p0.svg"] + pictures).enumerated()
            .map { "[[item]]\nid = \"s\($0.offset)\"\nimage = \"\($0.element)\"\n" }.joined())
    }

    func importer() -> ContentImporter { fixture.importer() }

    /// The import on another thread, waited for at most `seconds` (a FIFO opened for reading
    /// blocks until a writer comes: the old import never ended).
    func importWithin(_ seconds: Double, _ importer: ContentImporter, step: String) throws -> ImportStatus {
        let done = expectation(description: step)
        nonisolated(unsafe) var status: ImportStatus?
        let root = stick
        Thread.detachNewThread {
            status = importer.importStick(root: root, device: "/dev/sdz1")
            done.fulfill()
        }
        let waited = XCTWaiter().wait(for: [done], timeout: seconds)
        XCTAssertEqual(waited, .completed, "the import did not end within \(seconds) s: \(step)")
        return try XCTUnwrap(status, step)
    }

    func testAFIFOASocketAHiddenFileAndAFileTooDeepAreRefusedUnopenedBeforeTheCopy() throws {
        XCTAssertEqual(mkfifo(stick + "/kiosk-carousel/pictures/fifo.svg", 0o644), 0)
        let socketPath = stick + "/kiosk-carousel/pictures/socket.svg"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (n, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[n] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        XCTAssertEqual(bound, 0, "bind \(socketPath)")
        try FileManager.default.createDirectory(atPath: stick + "/kiosk-carousel/.hidden", withIntermediateDirectories: true)
        try onStick(".hidden/h.svg", StickFolder.picture)
        let deep = (0..<StickListing.maxDepth).map { "d\($0)" }.joined(separator: "/")
        try FileManager.default.createDirectory(atPath: stick + "/kiosk-carousel/" + deep, withIntermediateDirectories: true)
        try onStick(deep + "/deep.svg", StickFolder.picture)
        try config(naming: ["pictures/fifo.svg", "pictures/socket.svg", ".hidden/h.svg", deep + "/deep.svg"])
        let imp = importer()
        var copying = false
        imp.beforeCopying = { _ in copying = true }
        let status = try importWithin(60, imp, step: "import of a stick whose config names a FIFO")
        XCTAssertEqual(status.state, .failed)
        XCTAssertFalse(copying, "refused before the copy")
        XCTAssertEqual(status.problems.count, 4, "\(status.problems)")
        let expected = ["kiosk-carousel/config.toml:6:9: 'image' \"pictures/fifo.svg\": is a FIFO (named pipe), not a file",
                        "kiosk-carousel/config.toml:9:9: 'image' \"pictures/socket.svg\": is a socket, not a file",
                        "kiosk-carousel/config.toml:12:9: 'image' \".hidden/h.svg\": is a hidden file",
                        "kiosk-carousel/config.toml:15:9: 'image' \"\(deep)/deep.svg\": is more than 16 folders deep"]
        for (problem, start) in zip(status.problems, expected) { XCTAssertTrue(problem.hasPrefix(start), "\(problem)\nexpected: \(start)…") }
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: content + "/current"))
    }

    func testNamesThatAreNotUTF8AreSkippedNotAFailure() throws {
        try config(naming: [])
        let bad: [UInt8] = Array("\(stick)/kiosk-carousel/pictures/caf".utf8) + [0xE9] + Array(".svg".utf8) + [0]
        let fd = bad.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let listing = try StickListing(folder: stick + "/kiosk-carousel")
        XCTAssertEqual(listing.skipped.map(\.path), [stick + "/kiosk-carousel/pictures/caf\\xE9.svg"])
        let status = try importWithin(60, importer(), step: "import of a stick with a Latin-1 name")
        XCTAssertEqual(status.state, .done, "\(status)")
        let gen = try XCTUnwrap(try? FileManager.default.destinationOfSymbolicLink(atPath: content + "/current"))
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: content + "/" + gen).sorted(),
                       ["config.toml", "pictures", "pictures/p0.svg"])
    }

    func testControlCharactersInNamesAreEscapedInProblems() throws {
        try config(naming: ["pictures/new\\nline.svg"])  // a TOML escape: the name has a newline
        XCTAssertEqual(StickListing.printable("a\nb\u{1B}[31m.svg"), "a\\u{A}b\\u{1B}[31m.svg")
        XCTAssertEqual(StickListing.printable("plain ∕ name.svg"), "plain ∕ name.svg")
        let status = try importWithin(60, importer(), step: "import of a stick naming a file with a newline")
        XCTAssertEqual(status.state, .failed)
        XCTAssertEqual(status.problems.count, 1, "\(status.problems)")
        XCTAssertFalse(status.problems[0].contains("\n"), status.problems[0])
        XCTAssertTrue(status.problems[0].contains("new\\u{A}line.svg"), status.problems[0])
    }

    func testALinkInsideTheFolderIsRefusedBeforeTheCopy() throws {
        // Checked through the link on the stick it would pass, but links are not copied.
        try FileManager.default.createSymbolicLink(atPath: stick + "/kiosk-carousel/pictures/link.svg", withDestinationPath: "p0.svg")
        try config(naming: ["pictures/link.svg"])
        let status = try importWithin(60, importer(), step: "import of a stick naming a link")
        XCTAssertEqual(status.state, .failed)
        XCTAssertEqual(status.problems, ["kiosk-carousel/config.toml:6:9: 'image' \"pictures/link.svg\": is a symbolic link, not a file: only files are copied from a stick"])
    }

    func testACopyThatDoesNotReadBackIsNamedAsOnTheStick() throws {
        // A stick that answers differently the second time (a hostile USB device can): the
        // config copied is not the one checked, and names a file the copy lacks.
        try config(naming: [])
        let imp = importer()
        imp.beforeCopying = { path in
            if path.hasSuffix("config.toml") { try? self.onStick("config.toml", "[[item]]\nid = \"x\"\nimage = \"pictures/gone.svg\"\n") }
        }
        let status = try importWithin(60, imp, step: "import of a stick whose config changes during the copy")
        XCTAssertEqual(status.state, .failed)
        XCTAssertEqual(status.problems.count, 1, "\(status.problems)")
        XCTAssertTrue(status.problems[0].hasPrefix("kiosk-carousel/config.toml:3:9: 'image' file \"pictures/gone.svg\" (kiosk-carousel/pictures/gone.svg) does not exist"),
                      status.problems[0])
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: content)) ?? []).filter { $0.hasPrefix(".incoming") || $0 == "current" }, [])
    }

    func testAFolderOfTooManyFilesIsRefusedBeforeAnythingIsRead() throws {
        try config(naming: [])
        for n in 0..<5 { try onStick("pictures/small\(n).txt", "x") }
        let imp = importer()
        imp.maxFiles = 6      // config.toml, p0.svg and five more
        var copying = false
        imp.beforeCopying = { _ in copying = true }
        let status = try importWithin(60, imp, step: "import of a stick with too many files")
        XCTAssertEqual(status.state, .failed)
        XCTAssertFalse(copying)
        XCTAssertEqual(status.problems, ["kiosk-carousel/: 7 files, more than 6"])
        XCTAssertEqual(ContentImporter(machine: KioskConfiguration(), logger: Logger(label: "test")).maxFiles, 10_000)
    }
}
