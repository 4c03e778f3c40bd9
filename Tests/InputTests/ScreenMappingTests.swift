import XCTest
@testable import Input

/// Touch position path: calibration (libinput's matrix, normalized device space), panel size,
/// display rotation — for all four rotations.
final class ScreenMappingTests: XCTestCase {
    private func mapping(_ r: InputRotation) -> ScreenMapping {
        ScreenMapping(panelWidth: 800, panelHeight: 480, rotation: r)
    }

    func testScreenSizeSwapsForQuarterTurns() {
        XCTAssertEqual(mapping(.none).screenWidth, 800); XCTAssertEqual(mapping(.none).screenHeight, 480)
        XCTAssertEqual(mapping(.quarter).screenWidth, 480); XCTAssertEqual(mapping(.quarter).screenHeight, 800)
        XCTAssertEqual(mapping(.half).screenWidth, 800)
        XCTAssertEqual(mapping(.threeQuarters).screenWidth, 480); XCTAssertEqual(mapping(.threeQuarters).screenHeight, 800)
    }

    /// The panel's top-left corner (and a point near it) land where a clockwise turn puts them.
    func testCornersOfEachRotation() {
        func p(_ r: InputRotation, _ x: Double, _ y: Double) -> [Double] {
            let s = mapping(r).screenPoint(panelX: x, panelY: y); return [s.x, s.y]
        }
        // 0°: unchanged.
        XCTAssertEqual(p(.none, 100, 50), [100, 50])
        // 90° clockwise: the picture's top edge runs down the panel's right edge, so the panel's
        // top-right corner is the screen's top-left.
        XCTAssertEqual(p(.quarter, 800, 0), [0, 0])
        XCTAssertEqual(p(.quarter, 0, 0), [0, 800])
        XCTAssertEqual(p(.quarter, 700, 100), [100, 100])
        // 180°: both axes reversed.
        XCTAssertEqual(p(.half, 0, 0), [800, 480])
        XCTAssertEqual(p(.half, 700, 100), [100, 380])
        // 270°: the panel's bottom-left corner is the screen's top-left.
        XCTAssertEqual(p(.threeQuarters, 0, 480), [0, 0])
        XCTAssertEqual(p(.threeQuarters, 100, 380), [100, 100])
    }

    func testPanelPointInvertsScreenPointForAllRotations() {
        for r in InputRotation.allCases {
            let m = mapping(r)
            for (x, y) in [(0.0, 0.0), (123.5, 77.25), (799.0, 479.0), (400, 240)] {
                let s = m.screenPoint(panelX: x, panelY: y)
                XCTAssertTrue((0...m.screenWidth).contains(s.x) && (0...m.screenHeight).contains(s.y), "\(r) \(s)")
                let back = m.panelPoint(screenX: s.x, screenY: s.y)
                XCTAssertEqual(back.x, x, accuracy: 1e-9, "\(r)"); XCTAssertEqual(back.y, y, accuracy: 1e-9, "\(r)")
            }
        }
    }

    /// The same figures the VM test checks on a real kernel (Tests/vm/input-record.sh).
    func testCalibrationThenPanelThenRotation() throws {
        let invertX = try CalibrationMatrix([-1, 0, 1, 0, 1, 0])
        let q = invertX.screenPoint(normalizedX: 0.75, normalizedY: 0.5, mapping: mapping(.quarter))
        XCTAssertEqual(q.x, 240, accuracy: 1e-9); XCTAssertEqual(q.y, 600, accuracy: 1e-9)
        let swap = try CalibrationMatrix([0, 1, 0, 1, 0, 0])
        let t = swap.screenPoint(normalizedX: 0.25, normalizedY: 0.75, mapping: mapping(.threeQuarters))
        XCTAssertEqual(t.x, 360, accuracy: 1e-9); XCTAssertEqual(t.y, 600, accuracy: 1e-9)
    }

    func testCalibrationForAllFourRotations() throws {
        // A touchscreen whose glass is offset and scaled: x' = 0.9x + 0.05, y' = 0.8y + 0.1.
        let m = try CalibrationMatrix([0.9, 0, 0.05, 0, 0.8, 0.1])
        let expected: [InputRotation: (Double, Double)] = [
            // normalized (0.5, 0.25) → calibrated (0.5, 0.3) → panel (400, 144)
            .none: (400, 144), .quarter: (144, 400), .half: (400, 336), .threeQuarters: (336, 400),
        ]
        for r in InputRotation.allCases {
            let s = m.screenPoint(normalizedX: 0.5, normalizedY: 0.25, mapping: mapping(r))
            XCTAssertEqual(s.x, expected[r]!.0, accuracy: 1e-9, "\(r)")
            XCTAssertEqual(s.y, expected[r]!.1, accuracy: 1e-9, "\(r)")
        }
        let id = CalibrationMatrix.identity.apply(x: 0.3, y: 0.7)
        XCTAssertEqual(id.x, 0.3); XCTAssertEqual(id.y, 0.7)
    }

    func testMalformedCalibrationIsRejectedWithAReason() {
        XCTAssertThrowsError(try CalibrationMatrix([1, 0, 0, 0, 1])) {
            XCTAssertTrue("\($0)".contains("6 numbers"), "\($0)")
        }
        XCTAssertThrowsError(try CalibrationMatrix([1, 0, .nan, 0, 1, 0])) {
            XCTAssertTrue("\($0)".contains("finite"), "\($0)")
        }
    }

    func testClampKeepsThePointerOnTheRotatedScreen() {
        let m = mapping(.quarter)
        let c = m.clamp(x: 900, y: -5)
        XCTAssertEqual(c.x, 479); XCTAssertEqual(c.y, 0)
    }

    func testOptionsScreenSizeFollowsRotation() {
        var o = InputOptions()
        o.rotation = .quarter
        o.setScreenSize(width: 480, height: 800)
        XCTAssertEqual(o.panelWidth, 800); XCTAssertEqual(o.panelHeight, 480)
        XCTAssertEqual(o.screenSize.width, 480); XCTAssertEqual(o.screenSize.height, 800)
    }
}
