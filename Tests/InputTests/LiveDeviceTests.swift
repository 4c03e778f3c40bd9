import CEvdev
import CarouselCore
import Glibc
import LinuxSystem
import XCTest
@testable import Input

/// The device sources on a real kernel with uinput devices: suspend/resume, the knob's grab,
/// descriptors that stay quiet when nothing happens. They need /dev/uinput and udevd and write a
/// udev rule, so they run only inside kiosk-vm (Tests/vm/input-live.sh runs exactly this class
/// there, and checks that none was skipped); anywhere else they are skipped.
final class LiveDeviceTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["KIOSK_VM_CTL"] != nil
                          && access("/dev/uinput", W_OK) == 0 && access("/run/udev/control", F_OK) == 0,
                          "needs kiosk-vm (/dev/uinput, udevd): run through Tests/vm/input-live.sh")
    }

    func testKnobIsGrabbedReleasedOnSuspendAndTakenBackOnResume() throws {
        let knob = try UInputDevice.knob(name: "live-knob")
        let source = try RotaryEncoderSource(options: RotaryOptions(name: "live-knob"))
        defer { source.close() }
        XCTAssertTrue(source.isOpen, "the knob exists at start: opened at once")
        let opened = source.pollDescriptors
        XCTAssertEqual(opened.count, 3, "the udev monitor, the queue and the knob")
        XCTAssertFalse(canGrab(knob.devnode), "grabbed while open, so libinput does not see it too")

        knob.write([(EV_REL, REL_DIAL, 1), (EV_SYN, SYN_REPORT, 0), (EV_KEY, KEY_ENTER, 1), (EV_SYN, SYN_REPORT, 0)])
        XCTAssertEqual(try readUntil(source, count: 2), [.rotary(delta: 1), .keyDown(.enter)])

        let generation = source.descriptorGeneration
        source.suspend()
        XCTAssertEqual(source.pollDescriptors, Array(opened.prefix(2)), "the knob's descriptor is closed; the others stay")
        XCTAssertNotEqual(source.descriptorGeneration, generation, "the loop is told to watch them anew")
        XCTAssertEqual(try readUntil(source, count: 1), [.keyUp(.enter)], "the held button is released")
        XCTAssertTrue(canGrab(knob.devnode), "suspended: released and closed")
        knob.write([(EV_REL, REL_DIAL, 5), (EV_SYN, SYN_REPORT, 0)])
        XCTAssertFalse(readable(source, timeout: 0.3), "nothing is read while suspended")

        source.resume()
        XCTAssertFalse(canGrab(knob.devnode), "grabbed again")
        knob.write([(EV_KEY, KEY_ENTER, 0), (EV_SYN, SYN_REPORT, 0), (EV_REL, REL_DIAL, -1), (EV_SYN, SYN_REPORT, 0)])
        XCTAssertEqual(try readUntil(source, count: 1), [.rotary(delta: -1)],
                       "turns while suspended are not replayed; the stale release is not doubled")
        XCTAssertFalse(readable(source, timeout: 0.2), "quiet when nothing happens")
    }

    /// The udev backend's descriptor must go quiet once read: a wake-up left pending kept it
    /// readable and made the kiosk's loop spin at full CPU with nothing to do.
    func testLibinputUdevSourceIsQuietAfterARead() throws {
        let source = try LibInputSource(options: InputOptions())
        defer { source.close() }
        let descriptors = source.pollDescriptors
        XCTAssertFalse(descriptors.isEmpty)
        XCTAssertTrue(readable(source, timeout: 0.2 * vmSlowdown), "devices present at start are announced at once")
        _ = try readUntil(source, count: 0, settle: 0.5)
        XCTAssertFalse(readable(source, timeout: 0.3), "quiet when nothing happens")
    }

    func testLibinputSuspendCancelsTheTouchAndResumeWorksAgain() throws {
        let screen = try UInputDevice.touchscreen(name: "live-touch", max: 999)
        var options = InputOptions()
        options.panelWidth = 1000; options.panelHeight = 1000
        let source = try LibInputSource(options: options)
        defer { source.close() }
        let descriptors = source.pollDescriptors
        XCTAssertFalse(descriptors.isEmpty)
        _ = try readUntil(source, count: 0, settle: 1.0)     // device added
        screen.write(touchDown(x: 100, y: 200) + [(EV_SYN, SYN_REPORT, 0)])
        XCTAssertEqual(try readUntil(source, count: 1), [.touchDown(slot: 0, x: 100, y: 200)])

        source.suspend()
        XCTAssertEqual(try readUntil(source, count: 1), [.touchCancel(slot: 0)], "the finger's drag ends cleanly")
        screen.write([(EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, SYN_REPORT, 0)])
        source.resume()
        _ = try readUntil(source, count: 0, settle: 1.0)     // device added again
        screen.write(touchDown(x: 500, y: 600) + [(EV_SYN, SYN_REPORT, 0)])
        XCTAssertEqual(try readUntil(source, count: 1), [.touchDown(slot: 0, x: 500, y: 600)])
        XCTAssertEqual(source.pollDescriptors, descriptors, "libinput's descriptors stay the same")
    }

    func testTheKnobCanAppearAfterStart() throws {
        let source = try RotaryEncoderSource(options: RotaryOptions(name: "late-knob"))
        defer { source.close() }
        XCTAssertFalse(source.isOpen)
        let descriptors = source.pollDescriptors
        XCTAssertFalse(descriptors.isEmpty)
        _ = try readUntil(source, count: 0, settle: 0.5)   // udev news of earlier tests' devices
        XCTAssertFalse(readable(source, timeout: 0.3), "no device, no wake-ups")
        let knob = try UInputDevice.knob(name: "late-knob")
        _ = try readUntil(source, count: 0, settle: 1.5)
        XCTAssertTrue(source.isOpen, "opened when udev reported it")
        knob.write([(EV_REL, REL_DIAL, 2), (EV_SYN, SYN_REPORT, 0)])
        XCTAssertEqual(try readUntil(source, count: 1), [.rotary(delta: 2)])
    }

    /// The path backend: a listed device (a udev symlink) unplugged and plugged back works, and
    /// so does suspend/resume afterwards (libinput's own path resume would fail on the stale
    /// entry of the first plug).
    func testPathBackendSurvivesReplugAndSuspend() throws {
        let rule = "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"live-ptouch\", SYMLINK+=\"input/live-ptouch\"\n"
        try rule.write(toFile: "/etc/udev/rules.d/99-kiosk-live.rules", atomically: true, encoding: .utf8)
        XCTAssertEqual(Glibc.system("udevadm control --reload"), 0)
        var screen: UInputDevice? = try UInputDevice.touchscreen(name: "live-ptouch", max: 999)
        var options = InputOptions()
        options.devices = ["/dev/input/live-ptouch"]
        options.panelWidth = 1000; options.panelHeight = 1000
        let source = try LibInputSource(options: options)
        defer { source.close() }
        let descriptors = source.pollDescriptors
        XCTAssertFalse(descriptors.isEmpty)
        _ = try readUntil(source, count: 0, settle: 1.0)
        func tap(_ x: Int32, _ y: Int32) throws -> [InputEvent] {
            screen?.write(touchDown(x: x, y: y) + [(EV_SYN, SYN_REPORT, 0)])
            screen?.write([(EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0), (EV_SYN, SYN_REPORT, 0)])
            return try readUntil(source, count: 2)
        }
        XCTAssertEqual(try tap(100, 200), [.touchDown(slot: 0, x: 100, y: 200), .touchUp(slot: 0)])

        screen = nil                                              // unplugged
        _ = try readUntil(source, count: 0, settle: 1.0)
        screen = try UInputDevice.touchscreen(name: "live-ptouch", max: 999)
        _ = try readUntil(source, count: 0, settle: 1.5)       // added again through udev
        XCTAssertEqual(try tap(300, 400), [.touchDown(slot: 0, x: 300, y: 400), .touchUp(slot: 0)])

        source.suspend()
        XCTAssertEqual(try readUntil(source, count: 0, settle: 0.5), [])
        source.resume()
        _ = try readUntil(source, count: 0, settle: 1.0)
        XCTAssertEqual(try tap(700, 800), [.touchDown(slot: 0, x: 700, y: 800), .touchUp(slot: 0)])
        XCTAssertEqual(source.pollDescriptors, descriptors, "libinput's descriptors stay the same")
    }

    // MARK: - Helpers

    private func touchDown(x: Int32, y: Int32) -> [(Int32, Int32, Int32)] {
        [(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 7), (EV_ABS, ABS_MT_POSITION_X, x),
         (EV_ABS, ABS_MT_POSITION_Y, y), (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y)]
    }

    /// The source's descriptors that are readable within `timeout` seconds.
    private func ready(_ s: InputSource, timeout: Double) -> [Int32] {
        var p = s.pollDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&p, nfds_t(p.count), Int32(timeout * 1000)) > 0 else { return [] }
        return p.filter { $0.revents != 0 }.map(\.fd)
    }

    private func readable(_ s: InputSource, timeout: Double) -> Bool { !ready(s, timeout: timeout).isEmpty }

    /// Reads until `count` events arrived (or, with `settle`, for that long), failing after 5 s
    /// (x `KIOSK_VM_SLOWDOWN`).
    private func readUntil(_ s: InputSource, count: Int, settle: Double = 0) throws -> [InputEvent] {
        var out: [InputEvent] = []
        let end = Date().addingTimeInterval(settle > 0 ? settle : 5 * vmSlowdown)
        while Date() < end {
            for fd in ready(s, timeout: 0.1) { out += s.readTimed(fd: fd).map(\.event) }
            if settle == 0, out.count >= count { return out }
        }
        if settle > 0 { return out }
        XCTFail("got \(out) before the time ran out, wanted \(count) events")
        return out
    }

    private func canGrab(_ node: String) -> Bool {
        let fd = open(node, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var dev: OpaquePointer?
        guard libevdev_new_from_fd(fd, &dev) == 0 else { return false }
        defer { libevdev_free(dev) }
        let ok = libevdev_grab(dev, LIBEVDEV_GRAB) == 0
        if ok { _ = libevdev_grab(dev, LIBEVDEV_UNGRAB) }
        return ok
    }
}

/// The VM tests' slowdown factor (`KIOSK_VM_SLOWDOWN`, Tests/vm/lib/slowdown.bash; 1 when unset):
/// limits on what must happen are multiplied by it, checks that nothing happens are not.
let vmSlowdown = max(1, Double(ProcessInfo.processInfo.environment["KIOSK_VM_SLOWDOWN"] ?? "") ?? 1)

/// A virtual device made with libevdev's uinput API; removed when released.
final class UInputDevice {
    let uinput: OpaquePointer
    let devnode: String

    private init(_ build: (OpaquePointer) -> Void) throws {
        let dev = libevdev_new()!
        defer { libevdev_free(dev) }
        build(dev)
        var u: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &u)
        guard rc == 0, let u else { throw SystemCallError(call: "libevdev_uinput_create_from_device", errno: -rc) }
        uinput = u
        devnode = String(cString: libevdev_uinput_get_devnode(u))
        _ = Glibc.system("udevadm settle --timeout=\(Int((10 * vmSlowdown).rounded(.up)))")
    }

    deinit { libevdev_uinput_destroy(uinput) }

    static func knob(name: String) throws -> UInputDevice {
        try UInputDevice { d in
            libevdev_set_name(d, name)
            libevdev_enable_event_code(d, UInt32(EV_REL), UInt32(REL_DIAL), nil)
            libevdev_enable_event_code(d, UInt32(EV_KEY), UInt32(KEY_ENTER), nil)
        }
    }

    static func touchscreen(name: String, max: Int32) throws -> UInputDevice {
        try UInputDevice { d in
            libevdev_set_name(d, name)
            libevdev_enable_property(d, UInt32(INPUT_PROP_DIRECT))
            libevdev_enable_event_code(d, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
            var axis = input_absinfo(value: 0, minimum: 0, maximum: max, fuzz: 0, flat: 0, resolution: 10)
            var slots = input_absinfo(value: 0, minimum: 0, maximum: 9, fuzz: 0, flat: 0, resolution: 0)
            var ids = input_absinfo(value: 0, minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0)
            for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
                libevdev_enable_event_code(d, UInt32(EV_ABS), UInt32(code), &axis)
            }
            libevdev_enable_event_code(d, UInt32(EV_ABS), UInt32(ABS_MT_SLOT), &slots)
            libevdev_enable_event_code(d, UInt32(EV_ABS), UInt32(ABS_MT_TRACKING_ID), &ids)
        }
    }

    func write(_ events: [(Int32, Int32, Int32)]) {
        for (type, code, value) in events {
            libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        }
    }
}
