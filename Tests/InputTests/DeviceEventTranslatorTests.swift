import CarouselCore
import XCTest
@testable import Input

final class DeviceEventTranslatorTests: XCTestCase {
    private func translator(_ r: InputRotation = .none) -> DeviceEventTranslator {
        DeviceEventTranslator(mapping: ScreenMapping(panelWidth: 800, panelHeight: 480, rotation: r), keyMap: .standard)
    }

    private func run(_ t: inout DeviceEventTranslator, _ raw: [RawDeviceEvent]) -> [InputEvent] {
        raw.flatMap { t.translate($0) }
    }

    func testTouchIsMappedThroughTheRotation() {
        var t = translator(.quarter)
        XCTAssertEqual(run(&t, [.touchDown(device: 1, slot: 0, panelX: 700, panelY: 100),
                                .touchMotion(device: 1, slot: 0, panelX: 600, panelY: 100),
                                .touchUp(device: 1, slot: 0)]),
                       [.touchDown(slot: 0, x: 100, y: 100), .touchMotion(slot: 0, x: 100, y: 200), .touchUp(slot: 0)])
    }

    func testEveryFingerKeepsItsOwnSlot() {
        var t = translator()
        let out = run(&t, [.touchDown(device: 1, slot: 0, panelX: 10, panelY: 10),
                           .touchDown(device: 1, slot: 1, panelX: 20, panelY: 20),
                           .touchUp(device: 1, slot: 0), .touchUp(device: 1, slot: 1)])
        XCTAssertEqual(out, [.touchDown(slot: 0, x: 10, y: 10), .touchDown(slot: 1, x: 20, y: 20),
                             .touchUp(slot: 0), .touchUp(slot: 1)])
    }

    func testCancelMidTouchEndsTheTouchOnce() {
        var t = translator()
        let out = run(&t, [.touchDown(device: 1, slot: 0, panelX: 10, panelY: 10),
                           .touchMotion(device: 1, slot: 0, panelX: 50, panelY: 10),
                           .touchCancel(device: 1, slot: 0),
                           .touchMotion(device: 1, slot: 0, panelX: 60, panelY: 10),
                           .touchUp(device: 1, slot: 0)])
        XCTAssertEqual(out, [.touchDown(slot: 0, x: 10, y: 10), .touchMotion(slot: 0, x: 50, y: 10), .touchCancel(slot: 0)],
                       "after a cancel, stray motion and up of that touch are dropped")
        XCTAssertEqual(t.touchingSlots, [])
    }

    func testDeviceRemovedMidTouchCancelsOnlyItsTouches() {
        var t = translator()
        var out = run(&t, [.touchDown(device: 1, slot: 0, panelX: 10, panelY: 10),
                           .touchDown(device: 2, slot: 1, panelX: 20, panelY: 20),
                           .touchDown(device: 1, slot: 2, panelX: 30, panelY: 30)])
        XCTAssertEqual(out.count, 3)
        out = run(&t, [.deviceRemoved(device: 1)])
        XCTAssertEqual(out, [.touchCancel(slot: 0), .touchCancel(slot: 2)])
        XCTAssertEqual(t.touchingSlots, [1])
        XCTAssertEqual(run(&t, [.deviceRemoved(device: 1)]), [], "nothing twice")
    }

    func testCancelledBeforeRemovalIsNotCancelledAgain() {
        var t = translator()
        let out = run(&t, [.touchDown(device: 1, slot: 0, panelX: 10, panelY: 10),
                           .touchCancel(device: 1, slot: 0), .deviceRemoved(device: 1)])
        XCTAssertEqual(out, [.touchDown(slot: 0, x: 10, y: 10), .touchCancel(slot: 0)])
    }

    func testDragEndsCleanlyInTheGestureLayerWhenTheDeviceGoes() {
        var t = translator()
        let g = GestureRecognizer(options: GestureOptions(), vertical: false)
        var intents: [Intent] = []
        let raw: [RawDeviceEvent] = [.touchDown(device: 1, slot: 0, panelX: 600, panelY: 240)]
            + (1...10).map { .touchMotion(device: 1, slot: 0, panelX: 600 - Double($0) * 20, panelY: 240) }
            + [.deviceRemoved(device: 1)]
        for (i, r) in raw.enumerated() {
            for e in t.translate(r) { intents += g.handle(e, now: Double(i) * 0.016) }
        }
        XCTAssertEqual(intents.first, .fingerDown(Point2(600, 240)), "a landing finger stops what moves")
        XCTAssertEqual(intents.dropFirst().first, .dragBegan)
        XCTAssertEqual(intents.last, .dragEnded(velocity: 0), "a removed device ends the drag without a fling")
    }

    func testRelativePointerIsTrackedAndClamped() {
        var t = translator()
        XCTAssertEqual(t.pointerPosition.x, 400); XCTAssertEqual(t.pointerPosition.y, 240)
        XCTAssertEqual(run(&t, [.pointerMotion(dx: 10, dy: -5)]), [.pointerMotion(x: 410, y: 235)])
        XCTAssertEqual(run(&t, [.pointerMotion(dx: 5000, dy: -5000)]), [.pointerMotion(x: 799, y: 0)])
        XCTAssertEqual(run(&t, [.pointerMotion(dx: 10, dy: -10)]), [], "already at the edge: nothing moves")
    }

    func testAbsolutePointerIsRotatedAndClamped() {
        var t = translator(.half)
        XCTAssertEqual(run(&t, [.pointerAbsolute(panelX: 700, panelY: 100)]), [.pointerMotion(x: 100, y: 380)])
        XCTAssertEqual(run(&t, [.pointerAbsolute(panelX: -50, panelY: 900)]), [.pointerMotion(x: 799, y: 0)])
    }

    func testLeftButtonActsAsAFingerOncePerSeat() {
        var t = translator()
        let out = run(&t, [.pointerButton(code: 0x110, pressed: true, seatCount: 1),
                           .pointerButton(code: 0x110, pressed: true, seatCount: 2),
                           .pointerButton(code: 0x111, pressed: true, seatCount: 1),
                           .pointerButton(code: 0x110, pressed: false, seatCount: 1),
                           .pointerButton(code: 0x110, pressed: false, seatCount: 0)])
        XCTAssertEqual(out, [.pointerButton(pressed: true), .pointerButton(pressed: false)])
    }

    func testWheelAddsUpToWholeNotches() {
        var t = translator()
        XCTAssertEqual(run(&t, [.scrollWheel(v120: 120)]), [.pointerAxis(delta: 1)])
        XCTAssertEqual(run(&t, [.scrollWheel(v120: -240)]), [.pointerAxis(delta: -2)])
        XCTAssertEqual(run(&t, [.scrollWheel(v120: 30), .scrollWheel(v120: 30), .scrollWheel(v120: 30)]), [])
        XCTAssertEqual(run(&t, [.scrollWheel(v120: 30)]), [.pointerAxis(delta: 1)], "high-resolution wheels")
        XCTAssertEqual(run(&t, [.scrollContinuous(value: 20), .scrollContinuous(value: 20)]), [])
        XCTAssertEqual(run(&t, [.scrollContinuous(value: 20)]), [.pointerAxis(delta: 1)], "50 units of finger scroll per notch")
    }

    func testKeysAreMappedAndCountedPerSeat() {
        var t = translator()
        let out = run(&t, [.key(code: 106, pressed: true, seatCount: 1),   // KEY_RIGHT
                           .key(code: 30, pressed: true, seatCount: 1),    // KEY_A: not mapped
                           .key(code: 28, pressed: true, seatCount: 1),    // KEY_ENTER
                           .key(code: 96, pressed: true, seatCount: 1),    // KEY_KPENTER: also enter
                           .key(code: 28, pressed: false, seatCount: 0),
                           .key(code: 96, pressed: false, seatCount: 0),
                           .key(code: 106, pressed: false, seatCount: 0),
                           .key(code: 106, pressed: false, seatCount: 0)])
        XCTAssertEqual(out, [.keyDown(.right), .keyDown(.enter), .keyUp(.enter), .keyUp(.right)])
    }

    func testReleaseAllEndsEverythingInProgress() {
        var t = translator()
        _ = run(&t, [.touchDown(device: 1, slot: 3, panelX: 1, panelY: 1),
                     .pointerButton(code: 0x110, pressed: true, seatCount: 1),
                     .key(code: 105, pressed: true, seatCount: 1),
                     .scrollWheel(v120: 60)])
        XCTAssertEqual(t.releaseAll(), [.touchCancel(slot: 3), .pointerButton(pressed: false), .keyUp(.left)])
        XCTAssertEqual(t.releaseAll(), [])
        XCTAssertEqual(run(&t, [.scrollWheel(v120: 60)]), [], "the half notch before release is forgotten")
        XCTAssertEqual(run(&t, [.key(code: 105, pressed: false, seatCount: 0)]), [], "no second key_up")
    }
}
