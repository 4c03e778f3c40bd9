import RasterCore
@testable import Video
import XCTest

final class DecoderTests: XCTestCase {
    func testPosterIsTheFirstFramesColourAndBlueFollowsAfterOneSecond() throws {
        let path = try Clips.redThenBlue()
        let poster = try VideoPoster.firstFrame(path: path, outputWidth: 32, outputHeight: 24)
        XCTAssertEqual(poster.texture.width, 32)
        XCTAssertEqual(poster.texture.height, 24)
        XCTAssertEqual(poster.time, 0, accuracy: 1e-9)
        let c = rgb(poster.texture[16, 12])
        XCTAssertEqual(c.a, 255)
        XCTAssertGreaterThan(c.r, 230, "red: \(c)")
        XCTAssertLessThan(c.g, 30, "red: \(c)")
        XCTAssertLessThan(c.b, 30, "red: \(c)")

        let decoder = try VideoDecoder(path: path, outputWidth: 32, outputHeight: 24, hardware: .off)
        var blue: VideoFrame?
        while let frame = try decoder.nextFrame() {
            if frame.time >= 1.0 - 1e-6 { blue = frame; break }
        }
        let b = try XCTUnwrap(blue)
        XCTAssertEqual(b.time, 1.0, accuracy: 0.001)
        XCTAssertEqual(b.duration, 0.1, accuracy: 0.001)
        let bc = rgb(b.texture[5, 5])
        XCTAssertGreaterThan(bc.b, 230, "blue: \(bc)")
        XCTAssertLessThan(bc.r, 30, "blue: \(bc)")
    }

    func testProbeDescribesTheClip() throws {
        let info = try VideoProbe.probe(path: try Clips.redThenBlue())
        XCTAssertEqual(info.container, "mov,mp4,m4a,3gp,3g2,mj2")
        XCTAssertEqual(info.codec, "h264")
        XCTAssertEqual(info.width, 64)
        XCTAssertEqual(info.height, 48)
        XCTAssertEqual(info.displayWidth, 64)
        XCTAssertEqual(info.frameRate, 10, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(info.duration), 2.0, accuracy: 0.05)
    }

    func testSingleFrameClipGivesOneFrameThenEnds() throws {
        let path = try Clips.singleFrame()
        let poster = try VideoPoster.firstFrame(path: path, outputWidth: 8, outputHeight: 8)
        let c = rgb(poster.texture[4, 4])
        XCTAssertGreaterThan(c.g, 100, "green: \(c)")
        XCTAssertLessThan(c.r, 30, "green: \(c)")
        let decoder = try VideoDecoder(path: path, outputWidth: 8, outputHeight: 8, hardware: .off)
        XCTAssertNotNil(try decoder.nextFrame())
        XCTAssertNil(try decoder.nextFrame())
        XCTAssertNil(try decoder.nextFrame(), "the end stays the end")
    }

    func testClipShorterThanOneFrame() throws {
        let path = try Clips.shorterThanAFrame()
        let poster = try VideoPoster.firstFrame(path: path, outputWidth: 8, outputHeight: 8)
        let c = rgb(poster.texture[4, 4])
        XCTAssertGreaterThan(c.r, 200, "yellow: \(c)")
        XCTAssertGreaterThan(c.g, 200, "yellow: \(c)")
        let decoder = try VideoDecoder(path: path, outputWidth: 8, outputHeight: 8, hardware: .off)
        var count = 0
        while try decoder.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, 1)
    }

    func testTruncatedFileWithIndexAtTheEndIsACorruptError() throws {
        let path = try Clips.truncated(try Clips.moving(), name: "truncated.mp4")
        XCTAssertThrowsError(try VideoPoster.firstFrame(path: path, outputWidth: 16, outputHeight: 12)) { error in
            let e = error as? VideoError
            XCTAssertEqual(e?.kind, .corrupt)
            XCTAssertTrue(e?.description.hasPrefix(path + ": ") ?? false, "\(error)")
            XCTAssertTrue(e?.reason.contains("truncated") ?? false, "\(error)")
        }
    }

    func testTruncatedFileWithIndexAtTheFrontShowsItsPosterAndEndsCleanlyOrCorrupt() throws {
        let path = try Clips.truncated(try Clips.moving(faststart: true), name: "truncated-faststart.mp4")
        _ = try VideoPoster.firstFrame(path: path, outputWidth: 16, outputHeight: 12)
        let decoder = try VideoDecoder(path: path, outputWidth: 16, outputHeight: 12, hardware: .off)
        var frames = 0
        do {
            while try decoder.nextFrame() != nil { frames += 1; XCTAssertLessThan(frames, 1000) }
        } catch let error as VideoError {
            XCTAssertEqual(error.kind, .corrupt, "\(error)")
        }
        XCTAssertGreaterThan(frames, 0)
        XCTAssertLessThan(frames, 30)
    }

    func testWebMNamedMP4Plays() throws {
        let path = try Clips.webmNamedMP4()
        let info = try VideoProbe.probe(path: path)
        XCTAssertEqual(info.container, "matroska,webm")
        XCTAssertEqual(info.codec, "vp9")
        let decoder = try VideoDecoder(path: path, outputWidth: 32, outputHeight: 24, hardware: .off)
        var frames = 0
        while try decoder.nextFrame() != nil { frames += 1 }
        XCTAssertEqual(frames, 10)
    }

    func testTextNamedMP4IsAnUnknownContainer() throws {
        let path = try Clips.textNamedMP4()
        XCTAssertThrowsError(try VideoProbe.probe(path: path)) { error in
            XCTAssertEqual(error as? VideoError, VideoError(path: path, kind: .unknownContainer,
                                                            reason: "not a video file FFmpeg can read (unknown container)"))
            XCTAssertEqual("\(error)", "\(path): not a video file FFmpeg can read (unknown container)")
        }
    }

    func testPNGNamedMP4IsAStillImageNotAVideo() throws {
        let path = try Clips.pngNamedMP4()
        XCTAssertThrowsError(try VideoPoster.firstFrame(path: path, outputWidth: 8, outputHeight: 8)) { error in
            let e = error as? VideoError
            XCTAssertEqual(e?.kind, .unknownContainer, "\(error)")
            XCTAssertTrue(e?.reason.contains("still image (PNG)") ?? false, "\(error)")
        }
    }

    func testProbeErrors() throws {
        func kind(_ path: String) -> VideoError.Kind? {
            do { _ = try VideoProbe.probe(path: path); return nil } catch { return (error as? VideoError)?.kind }
        }
        let missing = Clips.folder + "/no-such-clip.mp4"
        XCTAssertEqual(kind(missing), .unreadable)
        XCTAssertThrowsError(try VideoProbe.probe(path: missing)) {
            XCTAssertEqual("\($0)", "\(missing): no such file")
        }
        XCTAssertEqual(kind(Clips.folder), .unreadable, "a folder is not a video")
        XCTAssertEqual(kind("/dev/null"), .unreadable, "a device is not a video")
        let empty = Clips.folder + "/empty.mp4"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertEqual(kind(empty), .empty)
        XCTAssertEqual(kind(try Clips.textNamedMP4()), .unknownContainer)
        let audio = try Clips.audioOnly()
        XCTAssertEqual(kind(audio), .noVideoStream)
        XCTAssertThrowsError(try VideoProbe.probe(path: audio)) {
            XCTAssertTrue("\($0)".contains("no video stream"), "\($0)")
        }
    }

    func testLimitsAreCheckedBeforeDecoding() throws {
        var limits = VideoLimits()
        limits.maxPixels = 64 * 48 - 1
        XCTAssertThrowsError(try VideoPoster.firstFrame(path: try Clips.redThenBlue(), outputWidth: 8, outputHeight: 8,
                                                        limits: limits)) { error in
            XCTAssertEqual((error as? VideoError)?.kind, .tooLarge, "\(error)")
            XCTAssertTrue("\(error)".contains("64×48"), "\(error)")
        }
        limits.maxPixels = 64 * 48
        XCTAssertNoThrow(try VideoProbe.probe(path: try Clips.redThenBlue(), limits: limits))
    }

    func testRewindGoesBackToTheFirstFrame() throws {
        let decoder = try VideoDecoder(path: try Clips.moving(), outputWidth: 40, outputHeight: 30, hardware: .off)
        let first = try XCTUnwrap(decoder.nextFrame())
        for _ in 0..<12 { _ = try decoder.nextFrame() }
        try decoder.rewind()
        let again = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(again.time, 0, accuracy: 1e-9)
        XCTAssertEqual(first.time, 0, accuracy: 1e-9)
        XCTAssertTrue(samePixels(first.texture, again.texture))
        // After the end too.
        while try decoder.nextFrame() != nil {}
        try decoder.rewind()
        XCTAssertTrue(samePixels(first.texture, try XCTUnwrap(decoder.nextFrame()).texture))
    }

    func testFullHDSourceScaledToTheRequestedSize() throws {
        let decoder = try VideoDecoder(path: try Clips.fullHD(), outputWidth: 320, outputHeight: 180, hardware: .off)
        XCTAssertEqual(decoder.info.width, 1920)
        XCTAssertEqual(decoder.info.height, 1080)
        let frame = try XCTUnwrap(decoder.nextFrame())
        XCTAssertEqual(frame.texture.width, 320)
        XCTAssertEqual(frame.texture.height, 180)
        for i in 0..<(320 * 180) where frame.texture.pixels[i] >> 24 != 0xFF {
            XCTFail("pixel \(i) not opaque"); break
        }
    }

    /// A card that crops a wide clip's sides looks only at its middle columns: the scaler scales
    /// those (and 4 more either side), the same bytes as scaling the whole width (issue 28 §6).
    func testOnlyTheShownColumnsAreScaledAndEqualTheWholeWidthScale() throws {
        let path = try Clips.fullHD()
        let whole = try VideoDecoder(path: path, outputWidth: 640, outputHeight: 360, hardware: .off)
        let cropped = try VideoDecoder(path: path, outputSize: { _ in (640, 360) }, shownWidth: 480, hardware: .off)
        for n in 0..<3 {
            let a = try XCTUnwrap(whole.nextFrame()).texture, b = try XCTUnwrap(cropped.nextFrame()).texture
            XCTAssertEqual(b.width, 640, "the frame keeps its size; the sides hold nothing defined")
            var differing = 0
            for y in 0..<360 { for x in 80..<560 where a[x, y] != b[x, y] { differing += 1 } }
            XCTAssertEqual(differing, 0, "frame \(n): \(differing) shown pixels differ from the whole-width scale")
        }
    }

    /// Which columns are scaled: the shown ones with the margin when they map to whole source
    /// columns on a chroma sample, else all.
    func testScaledColumnsAreTheShownOnesOnlyWhenTheyMapToWholeSourceColumns() {
        let card = FrameScaler(width: 640, height: 360, shownWidth: 480)
        XCTAssertEqual(card.shownColumns, 80..<560)
        XCTAssertTrue(card.scaledColumns(sourceWidth: 1920, chromaShift: 1) == (76..<564, 228), "3:1")
        XCTAssertTrue(card.scaledColumns(sourceWidth: 1280, chromaShift: 1) == (76..<564, 152), "2:1")
        XCTAssertTrue(card.scaledColumns(sourceWidth: 854, chromaShift: 1) == (0..<640, 0), "854 / 640: not whole columns")
        XCTAssertTrue(card.scaledColumns(sourceWidth: 1920, chromaShift: -1) == (0..<640, 0), "a format that cannot be cropped")
        XCTAssertTrue(card.scaledColumns(sourceWidth: 1920, chromaShift: 4) == (0..<640, 0), "not on a chroma sample")
        XCTAssertEqual(FrameScaler(width: 641, height: 360, shownWidth: 480).shownColumns, 0..<641, "a half-pixel offset: all")
        XCTAssertEqual(FrameScaler(width: 640, height: 360).shownColumns, 0..<640)
    }

    func testHardwareAutoFallsBackToSoftwareWithAReason() throws {
        let decoder = try VideoDecoder(path: try Clips.redThenBlue(), outputWidth: 8, outputHeight: 8, hardware: .auto)
        if decoder.isHardware {
            XCTAssertTrue(decoder.decoderName.hasSuffix("_v4l2m2m"))
            XCTAssertNil(decoder.fallbackReason)
        } else {
            XCTAssertEqual(decoder.decoderName, "h264")
            XCTAssertNotNil(decoder.fallbackReason)
            if !FileManager.default.fileExists(atPath: "/dev/video0") {
                XCTAssertEqual(decoder.fallbackReason, "h264_v4l2m2m has no V4L2 memory-to-memory device (/dev/video*) to run on")
            }
        }
        XCTAssertNotNil(try decoder.nextFrame())
        let off = try VideoDecoder(path: try Clips.redThenBlue(), outputWidth: 8, outputHeight: 8, hardware: .off)
        XCTAssertFalse(off.isHardware)
        XCTAssertNil(off.fallbackReason)
    }

    func testPosterAndFirstSecondsOfATenMinuteClipReadOnlyItsBeginning() throws {
        let path = try Clips.tenMinutes()
        let decoder = try VideoDecoder(path: path, outputWidth: 64, outputHeight: 48, hardware: .off)
        XCTAssertEqual(try XCTUnwrap(decoder.info.duration), 600, accuracy: 1)
        var last = 0.0
        for _ in 0..<10 { last = try XCTUnwrap(decoder.nextFrame()).time }   // the first 5 s
        XCTAssertEqual(last, 4.5, accuracy: 0.01)
        let stats = decoder.readStatistics
        let size = stats.fileSize
        XCTAssertGreaterThan(size, 100_000)
        XCTAssertLessThan(stats.furthestByte, size / 10, "\(stats)")
        XCTAssertLessThan(stats.bytesRead, size / 10, "\(stats)")
        for target in stats.seekTargets { XCTAssertLessThan(target, size / 10, "seek to \(target) of \(size)") }
    }

    func testTenMinuteClipWithItsIndexAtTheEndSeeksOnlyToTheIndexAndBack() throws {
        let path = try Clips.tenMinutesIndexAtEnd()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let moov = try XCTUnwrap(bytes.range(of: Data("moov".utf8))).lowerBound - 4   // the atom's size field
        XCTAssertGreaterThan(moov, bytes.count / 2)
        let decoder = try VideoDecoder(path: path, outputWidth: 64, outputHeight: 48, hardware: .off)
        for _ in 0..<10 { _ = try XCTUnwrap(decoder.nextFrame()) }
        let stats = decoder.readStatistics
        for target in stats.seekTargets {
            XCTAssertTrue(target < Int64(bytes.count / 10) || target >= Int64(moov) - 32 * 1024, "seek to \(target); moov at \(moov): \(stats)")
        }
        let indexBytes = Int64(bytes.count - moov)
        // The first buffer (32 KB: the header), the index, and one buffer of frames after seeking back.
        XCTAssertLessThanOrEqual(stats.bytesRead, indexBytes + 2 * 32 * 1024, "\(stats)")
    }
}

func samePixels(_ a: Texture, _ b: Texture) -> Bool {
    a.width == b.width && a.height == b.height && (0..<(a.width * a.height)).allSatisfy { a.pixels[$0] == b.pixels[$0] }
}

final class CapabilitiesTests: XCTestCase {
    func testSummaryNamesEveryCommonCodec() {
        let caps = VideoCapabilities.current()
        let summary = caps.summary
        print(summary)
        for codec in VideoCapabilities.commonCodecs {
            XCTAssertTrue(summary.contains("\(codec): software "), summary)
        }
        XCTAssertEqual(caps.codecs.first { $0.codec == "h264" }?.software, "h264")
        XCTAssertTrue(summary.contains("V4L2 m2m decoders in libavcodec: "), summary)
        XCTAssertTrue(summary.contains("V4L2 m2m device"), summary)
    }
}
