import Foundation
import KioskConfig
import Raster
import TestSupport
import XCTest
@testable import Cards

/// A video item's card: its poster is the clip's first frame (or its `poster` picture), drawn
/// with the card's look; a file that is not a clip FFmpeg can play gives the "!" face and a
/// failure naming the clip, as a bad image does; `videoFace` draws a frame with the same look.
final class VideoCardTests: XCTestCase {
    let tmp = TempDir()
    let renderer = CardFaceRenderer()

    /// 1 s of red then 1 s of blue, 64x48 (4:3), H.264.
    func redThenBlue() throws -> String {
        try TestClips.make("cards-red-blue.mp4", ["-f", "lavfi", "-i", "color=c=red:s=64x48:r=10:d=1",
                                                  "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=10:d=1",
                                                  "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0"] + TestClips.x264)
    }

    func testThePosterIsTheClipsFirstFrame() throws {
        var item = ItemConfig(id: "film", title: "")
        item.video = try redThenBlue()
        let r = renderer.renderFace(item, width: 240, height: 180)
        XCTAssertNil(r.failure)
        let c = r.texture.argb(120, 60)
        XCTAssertTrue(c.r > 200 && c.g < 60 && c.b < 60, "the first frame is red: \(c)")
    }

    func testAPosterPictureWinsOverTheFirstFrame() throws {
        var item = ItemConfig(id: "film", title: "")
        item.video = try redThenBlue()
        item.poster = try TestClips.make("cards-green.png", ["-f", "lavfi", "-i", "color=c=green:s=64x48", "-frames:v", "1"])
        let r = renderer.renderFace(item, width: 240, height: 180)
        XCTAssertNil(r.failure)
        let c = r.texture.argb(120, 60)
        XCTAssertTrue(c.g > 100 && c.r < 60, "the poster picture is green: \(c)")
    }

    func testAFileThatIsNotAClipGivesTheBadgeAndNamesIt() throws {
        let path = tmp.write("notes.mp4", Array("just some text, not a video".utf8))
        var item = ItemConfig(id: "film", title: "Film")
        item.video = path
        let r = renderer.renderFace(item, width: 240, height: 180)
        XCTAssertEqual(r.failure?.file, path)
        XCTAssertEqual(r.failure?.reason, "not a video file FFmpeg can read (unknown container)")
    }

    func testVideoFaceDrawsTheFrameWithTheCardsLook() throws {
        var item = ItemConfig(id: "film", title: "")
        item.style.cornerRadius = 20
        let frame = Texture(width: 240, height: 180) { _, _ in 0xFF00_00FF }
        let face = renderer.videoFace(item, frame: frame, width: 240, height: 180)
        XCTAssertEqual(face.argb(120, 90).b, 255, "the frame fills the card")
        XCTAssertEqual(face.argb(0, 0).a, 0, "the card's rounded corner is cut out")
    }

    func testDecodeSizeIsTheDrawnSizeNeverLargerThanTheClip() {
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 1920, displayHeight: 1080, fit: .cover, boxWidth: 480, boxHeight: 360) .width, 640)
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 1920, displayHeight: 1080, fit: .cover, boxWidth: 480, boxHeight: 360).height, 360)
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 1920, displayHeight: 1080, fit: .contain, boxWidth: 480, boxHeight: 360).width, 480)
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 1920, displayHeight: 1080, fit: .contain, boxWidth: 480, boxHeight: 360).height, 270)
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 320, displayHeight: 240, fit: .cover, boxWidth: 1280, boxHeight: 720).width, 320,
                       "a small clip is scaled up when drawn, not decoded large")
    }

    /// libswscale's fast paths need an even output width; on an even card an even picture also
    /// sits on whole pixels (issue 28 §6).
    func testAScaledClipIsDecodedAnEvenNumberOfColumnsWideForAnEvenCard() {
        let cover = VideoStill.decodeSize(displayWidth: 854, displayHeight: 480, fit: .cover, boxWidth: 480, boxHeight: 360)
        XCTAssertEqual(cover.width, 640, "640.5 columns: the nearer even width")
        XCTAssertEqual(cover.height, 360)
        let contain = VideoStill.decodeSize(displayWidth: 640, displayHeight: 480, fit: .contain, boxWidth: 480, boxHeight: 200)
        XCTAssertEqual(contain.width, 266, "266.7 columns: 267 would be odd")
        XCTAssertEqual(contain.height, 200)
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 854, displayHeight: 480, fit: .cover, boxWidth: 481, boxHeight: 360).width, 641,
                       "an odd card keeps the nearest width")
        XCTAssertEqual(VideoStill.decodeSize(displayWidth: 853, displayHeight: 480, fit: .cover, boxWidth: 1280, boxHeight: 720).width, 853,
                       "a clip drawn unscaled keeps its own width")
    }
}
