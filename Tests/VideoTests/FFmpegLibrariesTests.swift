import CFFmpeg
import Foundation
import TestSupport
import Video
import XCTest

/// FFmpeg opened on demand (docs/video.md, "FFmpeg loaded on demand"): the program does not link
/// it, a start without video does not load it, and without its libraries a video is refused with
/// the loader's words while the rest runs.
final class FFmpegLibrariesTests: XCTestCase {
    func testTheSonamesAreThoseOfTheHeadersItWasBuiltWith() throws {
        try FFmpegLibraries.load()   // throws the loader's words when one is missing
        XCTAssertEqual(FFmpegLibraries.sonames,
                       "libavutil.so.\(LIBAVUTIL_VERSION_MAJOR) libswresample.so.\(LIBSWRESAMPLE_VERSION_MAJOR) "
                       + "libswscale.so.\(LIBSWSCALE_VERSION_MAJOR) libavcodec.so.\(LIBAVCODEC_VERSION_MAJOR) "
                       + "libavformat.so.\(LIBAVFORMAT_VERSION_MAJOR)")
    }

    /// The binary names none of FFmpeg's libraries (readelf's NEEDED entries), and a run that
    /// shows no video loads none of them (the dynamic loader's own list, LD_DEBUG=files).
    func testTheProgramNeitherLinksNorLoadsFFmpegWithoutAVideo() throws {
        let needed = try ProductBinary.neededLibraries()
        XCTAssertGreaterThan(needed.count, 10, "\(needed)")
        for library in ["libavformat", "libavcodec", "libavutil", "libswscale", "libswresample"] {
            XCTAssertFalse(needed.contains { $0.hasPrefix(library) }, "the program links \(library): \(needed)")
        }
        let fixture = try ScratchFolder("ffmpeg-start")
        defer { fixture.remove() }
        let config = try fixture.write("pictures.toml", "[[item]]\ntitle = \"One\"\n[[item]]\ntitle = \"Two\"\n")
        let run = try ProductBinary.run(["simulate", "--config", config, "--shot", "0=\(fixture.path)/shot.png"],
                                        environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.errors.contains("file=libpango"), "LD_DEBUG lists what is loaded")
        XCTAssertFalse(run.errors.contains("file=libavcodec"), "FFmpeg loaded without a video")
    }

    /// libavutil replaced by an empty file (found first through LD_LIBRARY_PATH): `--version` says
    /// FFmpeg could not be loaded and why, and a config's clip is refused at its line with those
    /// words; pictures are still checked and the program does not crash.
    func testWithoutItsLibrariesAVideoIsRefusedWithTheLoadersWords() throws {
        let fixture = try ScratchFolder("ffmpeg-missing")
        defer { fixture.remove() }
        let avutil = "libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)"
        let environment = try fixture.emptyLibrary(avutil)
        let version = try ProductBinary.run(["--version"], environment: environment)
        XCTAssertEqual(version.status, 0, version.errors)
        XCTAssertTrue(version.output.contains("FFmpeg's libraries (libavutil.so.") && version.output.contains("could not be loaded"),
                      version.output)
        XCTAssertTrue(version.output.contains("\(fixture.path)/lib/\(avutil)") && version.output.contains(": no video"), version.output)
        let clip = try Clips.redThenBlue()
        let config = try fixture.write("video.toml", "[[item]]\nvideo = \"\(clip)\"\n[[item]]\ntitle = \"Two\"\n")
        let check = try ProductBinary.run(["check-config", config], environment: environment)
        XCTAssertNotEqual(check.status, 0)
        XCTAssertTrue(check.output.contains("\(config):2:9: 'video'") && check.output.contains("could not be loaded"),
                      check.output + check.errors)
        let withoutVideo = try fixture.write("plain.toml", "[[item]]\ntitle = \"One\"\n")
        XCTAssertEqual(try ProductBinary.run(["check-config", withoutVideo], environment: environment).status, 0)
    }
}
