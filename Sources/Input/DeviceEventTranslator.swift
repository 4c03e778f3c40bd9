import CarouselCore

/// One device event as the libinput source extracts it, before it becomes an `InputEvent`.
/// Positions are panel pixels (libinput's `_transformed`, calibration already applied);
/// `device` identifies the physical device, `slot` is libinput's seat-wide slot.
public enum RawDeviceEvent: Equatable, Sendable {
    case touchDown(device: Int, slot: Int, panelX: Double, panelY: Double)
    case touchMotion(device: Int, slot: Int, panelX: Double, panelY: Double)
    case touchUp(device: Int, slot: Int)
    case touchCancel(device: Int, slot: Int)
    /// A mouse or trackpad moved by (`dx`, `dy`) screen pixels (libinput's accelerated deltas).
    case pointerMotion(dx: Double, dy: Double)
    /// An absolute pointer (a tablet, a VM's tablet device) at a panel position.
    case pointerAbsolute(panelX: Double, panelY: Double)
    /// A pointer button; `seatCount` is how many devices on the seat hold it down now.
    case pointerButton(code: UInt16, pressed: Bool, seatCount: UInt32)
    /// A wheel click or part of one (`v120`: 120 per click, as libinput's high-resolution API).
    case scrollWheel(v120: Double)
    /// Finger or continuous scrolling in pointer-motion units.
    case scrollContinuous(value: Double)
    /// A key; `seatCount` is how many devices on the seat hold it down now.
    case key(code: UInt16, pressed: Bool, seatCount: UInt32)
    /// The device went away (unplugged, or released by `suspend`).
    case deviceRemoved(device: Int)
}

/// Turns raw device events into kiosk `InputEvent`s in screen pixels, keeping the state that
/// makes the stream well formed: every `touch_down` gets exactly one `touch_up` or
/// `touch_cancel` (also when its device is removed mid-touch), the pointer position stays on
/// the screen, keys go down and up once per seat (two keyboards holding Enter select once),
/// and wheel fractions add up to whole notches. Pure and deterministic.
///
/// Every finger is reported with its own slot; the gesture layer lets the first one drive.
public struct DeviceEventTranslator: Sendable {
    public var mapping: ScreenMapping
    public var keyMap: KeyMap
    /// Finger-scroll distance that counts as one wheel notch (pointer-motion units).
    public static let continuousScrollPerNotch = 50.0
    /// `BTN_LEFT`: the button that acts as a finger.
    static let primaryButton: UInt16 = 0x110

    private var activeSlots: [Int: Int] = [:]          // seat slot → device
    private var pointer: (x: Double, y: Double)
    private var pointerHeld = false
    private var heldKeys: [KeyName: Int] = [:]          // kiosk key → codes holding it
    private var scrollRemainder = 0.0

    public init(mapping: ScreenMapping, keyMap: KeyMap) {
        self.mapping = mapping; self.keyMap = keyMap
        pointer = (mapping.screenWidth / 2, mapping.screenHeight / 2)
    }

    /// The pointer's screen position (starts at the screen's centre).
    public var pointerPosition: (x: Double, y: Double) { pointer }
    /// Seat slots with a finger down.
    public var touchingSlots: [Int] { activeSlots.keys.sorted() }

    /// Translates one raw event.
    public mutating func translate(_ raw: RawDeviceEvent) -> [InputEvent] {
        switch raw {
        case .touchDown(let device, let slot, let px, let py):
            guard activeSlots[slot] == nil else { return [] }
            activeSlots[slot] = device
            let p = mapping.screenPoint(panelX: px, panelY: py)
            return [.touchDown(slot: slot, x: p.x, y: p.y)]
        case .touchMotion(_, let slot, let px, let py):
            guard activeSlots[slot] != nil else { return [] }
            let p = mapping.screenPoint(panelX: px, panelY: py)
            return [.touchMotion(slot: slot, x: p.x, y: p.y)]
        case .touchUp(_, let slot):
            return activeSlots.removeValue(forKey: slot) == nil ? [] : [.touchUp(slot: slot)]
        case .touchCancel(_, let slot):
            return activeSlots.removeValue(forKey: slot) == nil ? [] : [.touchCancel(slot: slot)]
        case .pointerMotion(let dx, let dy):
            return movePointer(to: mapping.clamp(x: pointer.x + dx, y: pointer.y + dy))
        case .pointerAbsolute(let px, let py):
            let p = mapping.screenPoint(panelX: px, panelY: py)
            return movePointer(to: mapping.clamp(x: p.x, y: p.y))
        case .pointerButton(let code, let pressed, let seatCount):
            guard code == Self.primaryButton else { return [] }
            if pressed, seatCount == 1, !pointerHeld { pointerHeld = true; return [.pointerButton(pressed: true)] }
            if !pressed, seatCount == 0, pointerHeld { pointerHeld = false; return [.pointerButton(pressed: false)] }
            return []
        case .scrollWheel(let v120):
            return scroll(by: v120 / 120)
        case .scrollContinuous(let value):
            return scroll(by: value / Self.continuousScrollPerNotch)
        case .key(let code, let pressed, _):
            guard let key = keyMap.key(for: code) else { return [] }
            let held = heldKeys[key, default: 0]
            if pressed {
                heldKeys[key] = held + 1
                return held == 0 ? [.keyDown(key)] : []
            }
            guard held > 0 else { return [] }
            heldKeys[key] = held - 1 == 0 ? nil : held - 1
            return held == 1 ? [.keyUp(key)] : []
        case .deviceRemoved(let device):
            let gone = activeSlots.filter { $0.value == device }.keys.sorted()
            for s in gone { activeSlots[s] = nil }
            return gone.map { .touchCancel(slot: $0) }
        }
    }

    /// Ends everything in progress (before the devices are handed to another program):
    /// fingers are cancelled, held keys and the held button are released.
    public mutating func releaseAll() -> [InputEvent] {
        var out: [InputEvent] = activeSlots.keys.sorted().map { .touchCancel(slot: $0) }
        activeSlots.removeAll()
        if pointerHeld { pointerHeld = false; out.append(.pointerButton(pressed: false)) }
        for key in KeyName.allCases where heldKeys[key] != nil { out.append(.keyUp(key)) }
        heldKeys.removeAll()
        scrollRemainder = 0
        return out
    }

    private mutating func movePointer(to p: (x: Double, y: Double)) -> [InputEvent] {
        guard p != pointer else { return [] }
        pointer = p
        return [.pointerMotion(x: p.x, y: p.y)]
    }

    private mutating func scroll(by notches: Double) -> [InputEvent] {
        guard notches.isFinite else { return [] }
        scrollRemainder += notches
        let whole = scrollRemainder.rounded(.towardZero)
        guard whole != 0 else { return [] }
        scrollRemainder -= whole
        return [.pointerAxis(delta: whole)]
    }
}
