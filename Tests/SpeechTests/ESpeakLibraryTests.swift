import Foundation
import TestSupport
import XCTest
@testable import Speech

/// espeak-ng opened on demand (docs/start-up.md, "Libraries opened on demand"): the program
/// does not link it, a run that does not speak does not load it, and without it speech fails with
/// the loader's words.
final class ESpeakLibraryTests: XCTestCase {
    func testItLoadsAndNamesTheSonameItOpens() throws {
        try ESpeakLibrary.load()
        XCTAssertEqual(ESpeakLibrary.soname, "libespeak-ng.so.1")
    }

    /// The binary names no espeak-ng (readelf's NEEDED entries); the dynamic loader's own list
    /// (LD_DEBUG=files) has it only in the run that synthesises (`simulate --audio-out`).
    func testTheProgramLoadsEspeakNGOnlyToSpeak() throws {
        let needed = try ProductBinary.neededLibraries()
        XCTAssertTrue(needed.contains { $0.hasPrefix("libpango") }, "\(needed)")
        XCTAssertFalse(needed.contains { $0.hasPrefix("libespeak") }, "the program links espeak-ng: \(needed)")
        let fixture = try ScratchFolder("espeak-library")
        defer { fixture.remove() }
        let config = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n[[item]]\ntitle = \"Two\"\n")
        let load = try OnDemandLoad("libespeak-ng.so.1", prefix: "libespeak",
                                    without: ["simulate", "--config", config, "--size", "320x180", "--shot", "0=\(fixture.path)/plain.png"],
                                    with: ["simulate", "--config", config, "--size", "320x180", "--until", "0.5",
                                           "--audio-out", fixture.path + "/sound.wav"])
        XCTAssertEqual(load.problems, [], "espeak-ng: opened to speak only")
    }

    /// espeak-ng replaced by an empty file (found first through LD_LIBRARY_PATH): the speech
    /// engine cannot be made, and the error gives the loader's words.
    func testWithoutEspeakNGSpeechSaysWhy() throws {
        let fixture = try ScratchFolder("espeak-library-missing")
        defer { fixture.remove() }
        let environment = try fixture.emptyLibrary("libespeak-ng.so.1")
        let config = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n")
        let run = try ProductBinary.run(["simulate", "--config", config, "--size", "320x180", "--until", "0.5",
                                         "--audio-out", fixture.path + "/sound.wav"],
                                        environment: environment)
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.errors.contains("espeak-ng (libespeak-ng.so.1) could not be loaded: \(fixture.path)/lib/libespeak-ng.so.1"),
                      run.errors)
    }
}
