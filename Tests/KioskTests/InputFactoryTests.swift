import Foundation
import Input
import KioskConfig
import XCTest
@testable import Kiosk

final class InputFactoryTests: XCTestCase {
    func testSettingsBecomeInputOptions() throws {
        var s = InputSettings()
        s.seat = "seat1"
        s.calibration = [0, 1, 0, 1, 0, 0]
        s.keymap = ["KEY_A": .left]
        var r = RotarySettings()
        r.name = "rotary@4"; r.axis = .absX; r.invert = true; r.selectKey = "BTN_0"
        s.rotary = r
        var o = try InputOptions(settings: s, rotation: 90, panelWidth: 800, panelHeight: 480)
        XCTAssertEqual(o.seat, "seat1")
        XCTAssertEqual(o.rotation, .quarter)
        XCTAssertEqual(o.calibration, [0, 1, 0, 1, 0, 0])
        XCTAssertEqual(o.keyMap.key(for: 30), .left)
        XCTAssertEqual(o.rotary, RotaryOptions(name: "rotary@4", axis: .absX, invert: true, selectKeyCode: 0x100))
        o.setScreenSize(width: 480, height: 800)
        XCTAssertEqual(o.panelWidth, 800)
    }

    func testBadSettingsAreExplained() {
        var s = InputSettings()
        XCTAssertThrowsError(try InputOptions(settings: s, rotation: 45, panelWidth: 1, panelHeight: 1)) {
            XCTAssertTrue("\($0)".contains("0, 90, 180 or 270"), "\($0)")
        }
        s.keymap = ["KEY_WHAT": .enter]
        XCTAssertThrowsError(try InputOptions(settings: s, rotation: 0, panelWidth: 1, panelHeight: 1)) {
            XCTAssertTrue("\($0)".contains("KEY_WHAT"), "\($0)")
        }
        s.keymap = [:]
        var r = RotarySettings(); r.name = "knob"; r.selectKey = "ENTER"
        s.rotary = r
        XCTAssertThrowsError(try InputOptions(settings: s, rotation: 0, panelWidth: 1, panelHeight: 1)) {
            XCTAssertTrue("\($0)".contains("select_key \"ENTER\""), "\($0)")
        }
        s.rotary = nil
        s.calibration = [1, 2, 3]
        XCTAssertThrowsError(try InputOptions(settings: s, rotation: 0, panelWidth: 1, panelHeight: 1))
    }

    /// `KIOSK_TEST_FAULT=hold-input-open:PATH` holds the opening while PATH exists; the display's
    /// faults and malformed values are not it.
    func testTheHoldInputOpenFaultWaitsWhileItsFileExists() throws {
        XCTAssertNil(InputTestFault("wedge-flip:/run/x"))
        XCTAssertNil(InputTestFault("hold-input-open"))
        XCTAssertNil(InputTestFault("hold-input-open:"))
        let path = NSTemporaryDirectory() + "hold-input-\(getpid())"
        let fault = try XCTUnwrap(InputTestFault("hold-input-open:" + path))
        XCTAssertEqual(fault.holdPath, path)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { unlink(path) }
        let began = Date()
        fault.waitWhileHeld()
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(began), 0.25, "held while the file existed")
        fault.waitWhileHeld()  // no file: returns at once
    }
}
