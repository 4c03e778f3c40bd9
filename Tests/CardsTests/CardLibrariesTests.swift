import Foundation
import TestSupport
import XCTest
@testable import Cards

/// cairo, pango, fontconfig and the picture decoders opened with dlopen (docs/start-up.md, "The
/// drawing libraries behind the start"): every set opens and names what it opens; the decoders
/// open only for a picture; without them a picture card says why while the others are drawn.
final class CardLibrariesTests: XCTestCase {
    func testEverySetOpensAndNamesItsLibraries() throws {
        try CardLibraries.loadFontconfig()
        try CardLibraries.loadDrawing()
        try CardLibraries.loadImageDecoders()
        // Twice: the first answer again.
        try CardLibraries.loadDrawing()
        XCTAssertTrue(FontStartup.loadConfiguration())
    }

    func testAMissingLibraryIsNamedWithTheLoadersWords() {
        let missing = CardLibraries.LibraryMissing(libraries: "libturbojpeg.so.0 libpng16.so.16 libwebp.so.7",
                                                   reason: "libturbojpeg.so.0: cannot open shared object file")
        XCTAssertEqual(missing.description,
                       "libturbojpeg.so.0 libpng16.so.16 libwebp.so.7 could not be loaded: libturbojpeg.so.0: cannot open shared object file")
    }

    /// The run with pictures opens libjpeg-turbo (the dynamic loader's own list, LD_DEBUG=files,
    /// says "dynamically loaded"); the run with titles only never opens it.
    func testTheDecodersOpenOnlyForAPicture() throws {
        let fixture = try ScratchFolder("card-libraries")
        defer { fixture.remove() }
        let photo = fixture.path + "/photo.jpg"
        try Data(JPEGEncoder.encode(TestPictures.landscape(width: 160, height: 120))).write(to: URL(fileURLWithPath: photo))
        let plain = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n[[item]]\ntitle = \"Two\"\n")
        let pictured = try fixture.write("photo.toml", "[[item]]\ntitle = \"One\"\nimage = \"\(photo)\"\n")
        let load = try OnDemandLoad("libturbojpeg.so.0",
                                    without: ["simulate", "--config", plain, "--size", "320x180", "--shot", "0=\(fixture.path)/plain.png"],
                                    with: ["simulate", "--config", pictured, "--size", "320x180", "--shot", "0=\(fixture.path)/photo.png"])
        XCTAssertEqual(load.problems, [], "libjpeg-turbo: opened for a picture only")
    }

    /// libjpeg-turbo replaced by an empty file (found first through LD_LIBRARY_PATH): the picture
    /// card's warning gives the loader's words, the card beside it is drawn, nothing crashes.
    func testWithoutTheDecodersAPictureCardSaysWhy() throws {
        let fixture = try ScratchFolder("card-libraries-missing")
        defer { fixture.remove() }
        let environment = try fixture.emptyLibrary("libturbojpeg.so.0")
        let photo = fixture.path + "/photo.jpg"
        try Data(JPEGEncoder.encode(TestPictures.landscape(width: 160, height: 120))).write(to: URL(fileURLWithPath: photo))
        let config = try fixture.write("photo.toml", "[[item]]\ntitle = \"Photo\"\nimage = \"\(photo)\"\n[[item]]\ntitle = \"Two\"\n")
        let shot = fixture.path + "/shot.png"
        let run = try ProductBinary.run(["simulate", "--config", config, "--size", "320x180", "--shot", "0=\(shot)"],
                                        environment: environment)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.errors.contains("libturbojpeg.so.0 libpng16.so.16 libwebp.so.7 could not be loaded: \(fixture.path)/lib/libturbojpeg.so.0"),
                      run.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot))
    }
}
