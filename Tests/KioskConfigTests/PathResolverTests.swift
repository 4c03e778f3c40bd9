import Foundation
import XCTest
@testable import KioskConfig

/// `PathResolver.standardized` gives what Foundation's `standardizingPath` gives, on its own
/// where no component is a symbolic link and through Foundation where one is.
final class PathResolverTests: XCTestCase {
    private var fixture: ConfigFixture!
    /// The fixture's folder as the file system spells it (no link on the way), so that paths
    /// inside it without links of their own take the plain route.
    private var root = ""

    override func setUp() {
        fixture = ConfigFixture()
        root = (fixture.folder as NSString).resolvingSymlinksInPath
        let manager = FileManager.default
        fixture.write("pictures/harbour.png")
        fixture.write("pictures/deep/er/still.jpg")
        try? manager.createDirectory(atPath: root + "/elsewhere/inner", withIntermediateDirectories: true)
        fixture.write("elsewhere/inner/file.png")
        // A relative link, an absolute one, a chain of two, a link to the parent, a dangling one.
        try? manager.createSymbolicLink(atPath: root + "/rel", withDestinationPath: "elsewhere/inner")
        try? manager.createSymbolicLink(atPath: root + "/abs", withDestinationPath: root + "/pictures")
        try? manager.createSymbolicLink(atPath: root + "/chain", withDestinationPath: "rel")
        try? manager.createSymbolicLink(atPath: root + "/pictures/up", withDestinationPath: "..")
        try? manager.createSymbolicLink(atPath: root + "/gone", withDestinationPath: "nowhere/at/all")
    }

    override func tearDown() { fixture = nil }

    /// Paths with no link in them: the same as Foundation's, and found without it.
    func testPathsWithoutLinksAreStandardizedAsFoundationDoesThem() {
        let paths = [
            "/", "//", "/.", "/..", "/../..", "/./.", root, root + "/", root + "//",
            root + "/pictures/harbour.png", root + "//pictures///harbour.png/", root + "/./pictures/./harbour.png",
            root + "/pictures/../pictures/harbour.png", root + "/pictures/deep/er/../../harbour.png",
            root + "/missing/picture.png", root + "/missing/../pictures/harbour.png", root + "/missing/./x/..",
            root + "/pictures/harbour.png/not-a-folder", root + "/pictures/harbour.png/..",
            root + "/pictures/ünïcödé name.png", root + "/pictures/a b/c.png",
            root + "/...", root + "/..x/.y/",
            root + "/../" + (root as NSString).lastPathComponent + "/pictures",
        ]
        for path in paths {
            let expected = (path as NSString).standardizingPath
            XCTAssertEqual(PathResolver.standardized(path), expected, path)
            XCTAssertEqual(PathResolver.plainStandardized(path), expected, "\(path): not found without Foundation")
        }
    }

    /// A slash followed by a combining mark is one Swift `Character`, but the kernel splits the
    /// path there all the same: the plain walk goes by bytes and gives the folder the kernel
    /// opens (`realpath`), where Foundation, splitting by characters, takes "/́accent" for part of
    /// the name before it and `..` off with both.
    func testASlashBeforeACombiningMarkIsASeparatorAsForTheKernel() throws {
        let folder = root + "/pictures/\u{301}accent"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/.."
        guard let real = realpath(path, nil) else { return XCTFail("realpath \(path): errno \(errno)") }
        defer { free(real) }
        XCTAssertEqual(String(cString: real), root + "/pictures")
        XCTAssertEqual(PathResolver.plainStandardized(path), String(cString: real))
    }

    /// Paths through a link: Foundation's answer (the links resolved), never the plain one.
    func testPathsThroughLinksAreFoundationsAnswer() {
        let paths = [
            root + "/rel", root + "/rel/file.png", root + "/rel/", root + "/abs/harbour.png", root + "/chain/file.png",
            root + "/pictures/up/pictures/harbour.png", root + "/rel/../inner/file.png", root + "/gone", root + "/gone/x/..",
        ]
        for path in paths {
            XCTAssertNil(PathResolver.plainStandardized(path), path)
            XCTAssertEqual(PathResolver.standardized(path), (path as NSString).standardizingPath, path)
        }
        // An absolute link is followed (Foundation leaves a relative one in the middle of a path
        // as it is: the same answer either way, since the answer is Foundation's).
        XCTAssertEqual(PathResolver.standardized(root + "/abs/harbour.png"), root + "/pictures/harbour.png")
    }

    /// Relative paths and what Foundation takes off the front are left to Foundation.
    func testRelativePathsAndStrippedPrefixesAreLeftToFoundation() {
        for path in ["", ".", "pictures/harbour.png", "~", "~/x", "/private", "/private/tmp", "/var/automount/x"] {
            XCTAssertNil(PathResolver.plainStandardized(path), path)
            XCTAssertEqual(PathResolver.standardized(path), (path as NSString).standardizingPath, path)
        }
    }

    /// `resolve`: a relative path against the folder given, an absolute one as it is.
    func testResolveJoinsRelativePathsToTheFolder() {
        XCTAssertEqual(PathResolver.resolve("pictures/./harbour.png", folder: root), root + "/pictures/harbour.png")
        XCTAssertEqual(PathResolver.resolve("../x.png", folder: root + "/pictures"), root + "/x.png")
        XCTAssertEqual(PathResolver.resolve("abs/deep/er/still.jpg", folder: root), root + "/pictures/deep/er/still.jpg")
        XCTAssertEqual(PathResolver.resolve(root + "/pictures//harbour.png", folder: "/elsewhere"), root + "/pictures/harbour.png")
    }
}
