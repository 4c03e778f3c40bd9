import Foundation
import KioskConfig
import Raster
import XCTest
@testable import Cards

/// Cards rendered by the real renderer compared with PNGs looked at and committed under
/// `Golden/`. Fonts come from debian/control's Build-Depends (DejaVu, Noto, WenQuanYi); tiny differences in
/// glyph rasterisation between library versions are tolerated, a changed layout is not.
/// `CARDS_RECORD_GOLDEN=1 swift test --filter GoldenCardTests` rewrites the files.
final class GoldenCardTests: XCTestCase {
    let renderer = CardFaceRenderer()
    let tmp = TempDir()

    func testPhotoCoverWithShadowAndText() throws {
        let jpeg = tmp.write("dawn.jpg", JPEGEncoder.encode(TestPictures.landscape(width: 1200, height: 800), quality: 92))
        var style = CardStyle()
        style.shadow = true
        style.cornerRadius = 18
        var item = ItemConfig(id: "dawn", title: "Mountain Dawn", subtitle: "Photo · JPEG, cover", image: jpeg, style: style)
        item.style.textAlign = "left"
        try check(item, name: "photo-cover-shadow")
    }

    func testTextOnlyGradientBorderWrapsWithEllipsis() throws {
        var style = CardStyle()
        style.background = 0xFF1F_6F8B
        style.backgroundBottom = 0xFF0B_2A3A
        style.borderWidth = 4
        style.borderColor = 0xFFFF_D166
        style.titleSize = 34
        style.titleLines = 2
        let item = ItemConfig(id: "text", title: "A very long title that cannot fit on two lines of this card and so ends in an ellipsis",
                              subtitle: "Subtitle on one line", style: style)
        try check(item, name: "text-gradient-border")
    }

    func testSVGContain() throws {
        let svg = tmp.write("icon.svg", text: TestPictures.iconSVG)
        var style = CardStyle()
        style.imageFit = "contain"
        style.background = 0xFFF4_F1EA
        style.titleColor = 0xFF20_2020
        style.cornerRadius = 28
        let item = ItemConfig(id: "icon", title: "Play", image: svg, style: style)
        try check(item, name: "svg-contain")
    }

    func testScripts() throws {
        var style = CardStyle()
        style.titleSize = 30
        style.subtitleSize = 22
        let item = ItemConfig(id: "scripts", title: "こんにちは 你好 مرحبا بالعالم",
                              subtitle: "नमस्ते दुनिया · Grüße", style: style)
        try check(item, name: "scripts")
    }

    /// The "!" face is for a file that is there but cannot be shown (a missing one shows the
    /// loading face with its title: BadInputTests.testMissingFile).
    func testErrorFace() throws {
        let item = ItemConfig(id: "bad", title: "Broken picture", image: tmp.write("broken.jpg", text: "not a picture"))
        let result = renderer.renderFace(item, width: 480, height: 360)
        XCTAssertEqual(result.failure?.missing, false)
        try compare(result.texture, name: "error-face")
    }

    // MARK: Support

    func check(_ item: ItemConfig, name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = renderer.renderFace(item, width: 480, height: 360)
        XCTAssertNil(result.failure, "\(result.failure!)", file: file, line: line)
        try compare(result.texture, name: name, file: file, line: line)
    }

    func compare(_ actual: Texture, name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let sourceDir = (String(describing: #filePath) as NSString).deletingLastPathComponent + "/Golden"
        if ProcessInfo.processInfo.environment["CARDS_RECORD_GOLDEN"] == "1" {
            try TexturePNG.write(actual, to: "\(sourceDir)/\(name).png")
            return
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: "png", subdirectory: "Golden") else {
            XCTFail("no golden image \(name).png; record with CARDS_RECORD_GOLDEN=1", file: file, line: line)
            return
        }
        let expected = try TexturePNG.read(url.path)
        let diff = GoldenDiff(expected, actual)
        if !diff.acceptable {
            let out = NSTemporaryDirectory() + "cards-golden-\(name).png"
            try? TexturePNG.write(actual, to: out)
            XCTFail("\(name): \(diff) — actual written to \(out)", file: file, line: line)
        }
    }
}

/// How far two images are apart: the share of pixels whose channels differ by more than 24,
/// and the mean absolute channel difference. Anti-aliasing and hinting noise stays far below
/// 1 % and 1.0; a moved line of text or a wrong colour does not.
struct GoldenDiff: CustomStringConvertible {
    var sameSize: Bool
    var badFraction = 0.0
    var meanDifference = 0.0

    init(_ a: Texture, _ b: Texture) {
        sameSize = a.width == b.width && a.height == b.height
        guard sameSize else { return }
        var bad = 0, total = 0
        for i in 0..<(a.width * a.height) {
            let p = a.pixels[i], q = b.pixels[i]
            var worst = 0
            for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                let d = abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))
                total += d
                worst = max(worst, d)
            }
            if worst > 24 { bad += 1 }
        }
        badFraction = Double(bad) / Double(a.width * a.height)
        meanDifference = Double(total) / Double(a.width * a.height * 4)
    }

    var acceptable: Bool { sameSize && badFraction <= 0.01 && meanDifference <= 1.0 }

    var description: String {
        sameSize ? String(format: "%.2f %% of pixels differ, mean difference %.2f", badFraction * 100, meanDifference)
                 : "sizes differ"
    }
}
