import Foundation
import TestSupport
import XCTest
@testable import Cards

/// librsvg opened on demand (docs/start-up.md, "Libraries opened on demand"): the program does
/// not link it, a carousel without SVG does not load it, and without it an SVG card says why
/// while the other cards are drawn.
final class SVGLibraryTests: XCTestCase {
    private static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#2a7"/></svg>
        """

    func testItLoadsAndNamesTheSonameItOpens() throws {
        try SVGLibrary.load()
        XCTAssertEqual(SVGLibrary.soname, "librsvg-2.so.2")
        let document = try SVGDocument(Array(Self.svg.utf8), file: "square.svg")
        XCTAssertEqual(document.intrinsicSize?.width, 64)
    }

    /// The binary names no librsvg (readelf's NEEDED entries); the dynamic loader's own list
    /// (LD_DEBUG=files) has it only in the run that draws an SVG.
    func testTheProgramLoadsLibrsvgOnlyForAnSVG() throws {
        let needed = try ProductBinary.neededLibraries()
        XCTAssertTrue(needed.contains { $0.hasPrefix("libpango") }, "\(needed)")
        XCTAssertFalse(needed.contains { $0.hasPrefix("librsvg") }, "the program links librsvg: \(needed)")
        let fixture = try ScratchFolder("svg-library")
        defer { fixture.remove() }
        let icon = try fixture.write("icon.svg", Self.svg)
        let plain = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n[[item]]\ntitle = \"Two\"\n")
        let withSVG = try fixture.write("svg.toml", "[[item]]\ntitle = \"One\"\nimage = \"\(icon)\"\n")
        let load = try OnDemandLoad("librsvg-2.so.2",
                                    without: ["simulate", "--config", plain, "--size", "320x180", "--shot", "0=\(fixture.path)/plain.png"],
                                    with: ["simulate", "--config", withSVG, "--size", "320x180", "--shot", "0=\(fixture.path)/svg.png"])
        XCTAssertEqual(load.problems, [], "librsvg: opened for an SVG only")
    }

    /// librsvg replaced by an empty file (found first through LD_LIBRARY_PATH): the SVG card's
    /// warning gives the loader's words, the picture beside it is drawn, nothing crashes.
    func testWithoutLibrsvgAnSVGCardSaysWhy() throws {
        let fixture = try ScratchFolder("svg-library-missing")
        defer { fixture.remove() }
        let environment = try fixture.emptyLibrary("librsvg-2.so.2")
        let icon = try fixture.write("icon.svg", Self.svg)
        let config = try fixture.write("svg.toml", "[[item]]\ntitle = \"Icon\"\nimage = \"\(icon)\"\n[[item]]\ntitle = \"Two\"\n")
        let shot = fixture.path + "/shot.png"
        let run = try ProductBinary.run(["simulate", "--config", config, "--size", "320x180", "--shot", "0=\(shot)"],
                                        environment: environment)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.errors.contains("cannot show \(icon): librsvg (librsvg-2.so.2) could not be loaded: \(fixture.path)/lib/librsvg-2.so.2"),
                      run.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot))
    }
}
