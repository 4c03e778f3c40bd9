import Dispatch
import Raster
import XCTest
@testable import Display
#if canImport(Glibc)
import Glibc
#endif

/// `ScanoutBufferMaking` through `DRMBackend`: the first mode's buffers made on a thread of their
/// own while the display is already open, taken when the first frame is copied out; what happens
/// when they cannot be made; closing before they are taken.
final class ScanoutBufferMakingTests: XCTestCase {
    var sys: FakeDisplaySystem!
    var hotplug: FakeHotplug!

    override func setUp() {
        sys = FakeDisplaySystem()
        sys.makesScanoutBuffersInBackground = true
        hotplug = FakeHotplug()
    }

    func open() throws -> DRMDisplay {
        try DRMDisplay(options: DisplayOptions(), system: sys, hotplug: hotplug)
    }

    func testTheDisplayOpensBeforeItsBuffersAreMadeAndTheFirstFrameTakesThem() throws {
        let gate = DispatchSemaphore(value: 0)
        sys.dumbCreationGate = gate
        let d = try open()
        // The buffers' thread waits at the gate: the display is open without them.
        XCTAssertTrue(sys.dumbCreationThreads.isEmpty, "the display opened only once its buffers were made")
        XCTAssertEqual(d.fullSize.width, 1024); XCTAssertEqual(d.fullSize.height, 768)
        XCTAssertEqual(d.refreshRate, 60)
        XCTAssertTrue(d.canPresent, "the first frame can be drawn while the buffers are made")
        XCTAssertEqual(d.backend.currentMode?.width, 1024)
        gate.signal(); gate.signal()

        let frame = patternFrame(width: 1024, height: 768, generation: 0)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.dumbCreationThreads.count, 2)
        XCTAssertTrue(sys.dumbCreationThreads.allSatisfy { pthread_equal($0, pthread_self()) == 0 },
                      "the buffers were made on the opening thread")
        XCTAssertEqual(d.backend.buffers.count, 2)
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=101 conn=[51] mode=1024x768@60"), 1, "the first frame is a mode set")
        let shown = try XCTUnwrap(sys.pixels(ofFramebuffer: sys.scannedOut))
        for (x, y) in [(0, 0), (7, 5), (1023, 767)] { XCTAssertEqual(shown[y * 1024 + x], frame[x, y], "pixel \(x),\(y)") }
        sys.now += 1
        try d.present(frame, damage: [])
        XCTAssertEqual(sys.callCount("pageFlip"), 1, "then page flips into the other buffer")
    }

    func testBuffersThatFailOnTheirThreadAreTriedOnceMore() throws {
        sys.createDumbResults = [ENOMEM]
        let d = try open()
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.callCount("createDumb failed"), 1)
        XCTAssertEqual(d.backend.buffers.count, 2)
        XCTAssertEqual(sys.callCount("setCrtc 41"), 1, "shown with the buffers of the second try")
        XCTAssertEqual(sys.dumbs.count, 2, "nothing made by the failed try is left")
    }

    func testBuffersThatCannotBeMadeLeaveNoScreenUntilAHotplug() throws {
        // The thread makes one, fails at the second and frees the first; the second try fails too.
        sys.createDumbResults = [nil, ENOMEM, ENOMEM]
        let d = try open()
        let frame = patternFrame(width: 1024, height: 768, generation: 1)
        XCTAssertNoThrow(try d.present(frame, damage: [frame.bounds]))
        XCTAssertEqual(sys.callCount("setCrtc"), 0, "nothing shown without buffers")
        XCTAssertEqual(sys.callCount("destroyDumb"), 1, "the one buffer made was freed")
        XCTAssertTrue(sys.dumbs.isEmpty)
        XCTAssertFalse(d.canPresent)
        XCTAssertEqual(d.fullSize.width, 0, "no screen: nothing to lay out")
        XCTAssertNoThrow(try d.present(frame, damage: [frame.bounds]))

        // A hotplug event (the screen plugged in again) configures the output as at any hotplug.
        hotplug.pending = true
        XCTAssertTrue(d.handleReadable(hotplug.fd))
        XCTAssertEqual(d.fullSize.width, 1024)
        try d.present(frame, damage: [frame.bounds])
        XCTAssertEqual(sys.callCount("setCrtc 41"), 1)
    }

    func testClosingBeforeTheFirstFrameWaitsForTheBuffersAndFreesThem() throws {
        let d = try open()
        d.close()
        XCTAssertEqual(sys.callCount("createDumb 1024x768"), 2)
        XCTAssertEqual(sys.callCount("destroyDumb"), 2)
        XCTAssertTrue(sys.dumbs.isEmpty)
        XCTAssertTrue(sys.mappings.isEmpty)
        XCTAssertEqual(sys.callCount("setCrtc 41 fb=7"), 1, "the console's framebuffer restored")
    }
}
