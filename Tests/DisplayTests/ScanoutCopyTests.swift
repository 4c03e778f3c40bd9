import CarouselCore
import Raster
import XCTest
@testable import Display

final class ScanoutCopyTests: XCTestCase {
    /// The table in `DisplayRotation`'s documentation, pixel by pixel.
    func physical(_ r: DisplayRotation, x: Int, y: Int, lw: Int, lh: Int) -> (Int, Int) {
        switch r {
        case .none: return (x, y)
        case .clockwise90: return (lh - 1 - y, x)
        case .upsideDown: return (lw - 1 - x, lh - 1 - y)
        case .clockwise270: return (y, lw - 1 - x)
        }
    }

    func testEveryRotationMovesEveryPixelWhereTheTableSays() {
        // Sizes that are not multiples of the 64-pixel tile, with a padded pitch.
        let lw = 150, lh = 97
        let frame = patternFrame(width: lw, height: lh, generation: 3)
        let copier = ScanoutCopier()
        for rotation in DisplayRotation.allCases {
            let (pw, ph) = rotation.swapsAxes ? (lh, lw) : (lw, lh)
            let pitchPixels = pw + 5
            let mem = UnsafeMutablePointer<UInt32>.allocate(capacity: pitchPixels * ph)
            defer { mem.deallocate() }
            mem.initialize(repeating: 0xDEAD_BEEF, count: pitchPixels * ph)
            let buffer = ScanoutBuffer(base: UnsafeMutableRawPointer(mem), pitch: pitchPixels * 4, width: pw, height: ph, format: .xrgb8888)
            // A rectangle first: only it is written, exactly where physicalRect says.
            let r = PixelRect(x: 13, y: 70, width: 100, height: 20)
            XCTAssertEqual(copier.copy(r, from: frame, to: buffer, rotation: rotation), 2000)
            let pr = rotation.physicalRect(r, logicalWidth: lw, logicalHeight: lh)
            var written = 0
            for py in 0..<ph { for px in 0..<pw where mem[py * pitchPixels + px] != 0xDEAD_BEEF {
                written += 1
                XCTAssertTrue(pr.contains(PixelRect(x: px, y: py, width: 1, height: 1)), "\(rotation): \(px),\(py) outside \(pr)")
            } }
            XCTAssertEqual(written, 2000, "\(rotation)")
            // Then everything, checked against the table.
            copier.copy(frame.bounds, from: frame, to: buffer, rotation: rotation)
            for y in 0..<lh { for x in 0..<lw {
                let (px, py) = physical(rotation, x: x, y: y, lw: lw, lh: lh)
                if mem[py * pitchPixels + px] != frame[x, y] { return XCTFail("\(rotation): logical \(x),\(y) not at \(px),\(py)") }
            } }
            XCTAssertEqual(mem[pw], 0xDEAD_BEEF, "the pitch padding is never written")
        }
    }

    func testLogicalPointInvertsThePixelMapping() {
        let lw = 40.0, lh = 30.0
        for rotation in DisplayRotation.allCases {
            for (x, y) in [(0, 0), (39, 0), (0, 29), (17, 11)] {
                let (px, py) = physical(rotation, x: x, y: y, lw: 40, lh: 30)
                // Pixel centres map to pixel centres.
                let p = rotation.logicalPoint(physicalX: Double(px) + 0.5, physicalY: Double(py) + 0.5, logicalWidth: lw, logicalHeight: lh)
                XCTAssertEqual(p, Point2(Double(x) + 0.5, Double(y) + 0.5), "\(rotation)")
            }
        }
        XCTAssertEqual(DisplayRotation.clockwise90.logicalSize(physicalWidth: 800, physicalHeight: 480).width, 480)
        XCTAssertNil(DisplayRotation(degrees: 45))
    }

    func testRGB565AndXBGRConversion() {
        let frame = Canvas(width: 3, height: 1)
        frame[0, 0] = 0xFFFF_0000; frame[1, 0] = 0xFF00_FF00; frame[2, 0] = 0xFF12_3456
        let copier = ScanoutCopier()
        var m16 = [UInt16](repeating: 0, count: 3)
        m16.withUnsafeMutableBytes { raw in
            _ = copier.copy(frame.bounds, from: frame, to: ScanoutBuffer(base: raw.baseAddress!, pitch: 6, width: 3, height: 1, format: .rgb565), rotation: .none)
        }
        let expected: UInt16 = (0x12 >> 3) << 11 | (0x34 >> 2) << 5 | (0x56 >> 3)
        XCTAssertEqual(m16, [0xF800, 0x07E0, expected])
        var m32 = [UInt32](repeating: 0, count: 3)
        m32.withUnsafeMutableBytes { raw in
            _ = copier.copy(frame.bounds, from: frame, to: ScanoutBuffer(base: raw.baseAddress!, pitch: 12, width: 3, height: 1, format: .xbgr8888), rotation: .upsideDown)
        }
        XCTAssertEqual(m32, [0xFF56_3412, 0xFF00_FF00, 0xFF00_00FF])
    }

    func testAFrameThatDoesNotFitTheBufferIsNotCopied() {
        let frame = Canvas(width: 100, height: 100)
        let mem = UnsafeMutableRawPointer.allocate(byteCount: 50 * 50 * 4, alignment: 16)
        defer { mem.deallocate() }
        let b = ScanoutBuffer(base: mem, pitch: 200, width: 50, height: 50, format: .xrgb8888)
        XCTAssertEqual(ScanoutCopier().copy(frame.bounds, from: frame, to: b, rotation: .none), 0)
    }
}

final class ModeRequestTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(ModeRequest("1920x1080@60"), ModeRequest(width: 1920, height: 1080, refresh: 60))
        XCTAssertEqual(ModeRequest(" 800X480 ")?.refresh, nil)
        for bad in ["", "1920", "1920x", "x1080", "0x10", "1920x1080@", "1920x1080@0", "axb", "1x2x3", "1920x1080@60@1"] {
            XCTAssertNil(ModeRequest(bad), bad)
        }
    }

    func testPickPrefersPreferredThenHighestRefresh() {
        let modes = [DRMMode(width: 1280, height: 720, refresh: 50), DRMMode(width: 1280, height: 720, refresh: 60),
                     DRMMode(width: 1920, height: 1080, refresh: 30), DRMMode(width: 1920, height: 1080, refresh: 60, preferred: true)]
        XCTAssertEqual(ModeRequest("1280x720")?.pick(from: modes)?.description, "1280x720@60")
        XCTAssertEqual(ModeRequest("1280x720@50")?.pick(from: modes)?.description, "1280x720@50")
        XCTAssertEqual(ModeRequest("1920x1080")?.pick(from: modes)?.description, "1920x1080@60")
        XCTAssertNil(ModeRequest("1280x720@75")?.pick(from: modes))
    }
}

extension ModeRequest {
    init(width: Int, height: Int, refresh: Double?) {
        self.init("\(width)x\(height)")!
        self.refresh = refresh
    }
}
