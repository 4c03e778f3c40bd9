/// Everything the device sources need to know, as plain values (the `Input` module does not
/// read the config itself; `Kiosk` builds this from `[input]` and `[display]`).
public struct InputOptions: Equatable, Sendable {
    /// The udev seat libinput serves (`[input] seat`).
    public var seat = "seat0"
    /// Fixed device paths for libinput's path backend; empty: the udev backend on `seat`.
    public var devices: [String] = []
    /// The panel's native size in pixels (the display mode, before rotation).
    public var panelWidth = 1280
    public var panelHeight = 720
    /// Clockwise turn of the picture on the panel: 0, 90, 180 or 270 (`[display] rotation`).
    public var rotation = InputRotation.none
    /// libinput's 2×3 calibration matrix `[a, b, c, d, e, f]` in the touchscreen's own normalized
    /// coordinates; nil keeps the device's default (udev's `LIBINPUT_CALIBRATION_MATRIX`).
    public var calibration: [Double]?
    /// Which key code drives which kiosk key (defaults plus `[input] keymap`).
    public var keyMap = KeyMap.standard
    /// The rotary encoder read with libevdev, or nil for none.
    public var rotary: RotaryOptions?
    /// A second knob that sets the volume (`VolumeKnobSource`), and the detents of one step.
    public var volumeKnob: VolumeKnobOptions?
    /// Read the headphone jack's switch (`HeadphoneJackSource`: speech follows it).
    public var headphoneJack = false

    public init() {}

    /// Sets the panel size from the screen size the scene is laid out in (what
    /// `DisplayBackend.size` reports: already swapped for 90° and 270°).
    public mutating func setScreenSize(width: Int, height: Int) {
        (panelWidth, panelHeight) = rotation.swapsAxes ? (height, width) : (width, height)
    }

    /// The screen size events are reported in: the panel size, swapped for 90° and 270°.
    public var screenSize: (width: Int, height: Int) {
        rotation.swapsAxes ? (panelHeight, panelWidth) : (panelWidth, panelHeight)
    }
}

/// A rotary encoder (knob) read directly with libevdev, because libinput ignores bare encoders.
public struct RotaryOptions: Equatable, Sendable {
    /// The evdev axis that carries the detents.
    public enum Axis: String, CaseIterable, Sendable {
        case relDial = "REL_DIAL", relWheel = "REL_WHEEL", relHWheel = "REL_HWHEEL", relX = "REL_X"
        /// An absolute position that wraps around its range (the Raspberry Pi overlay's default).
        case absX = "ABS_X"
    }
    /// A device node or a symlink to one (`/dev/input/by-path/...`); takes precedence over `name`.
    public var device: String?
    /// The device name as the kernel reports it (`rotary@4`), searched in `/dev/input/event*`.
    public var name: String?
    public var axis = Axis.relDial
    /// Reverse the direction.
    public var invert = false
    /// The evdev key code of the push button that selects (default `KEY_ENTER`, 28); nil: none.
    public var selectKeyCode: UInt16? = 28
    /// What the knob is, in log lines and messages, and the config table that names it.
    public var label = "rotary encoder"
    public var table = "[input.rotary]"

    public init(device: String? = nil, name: String? = nil, axis: Axis = .relDial, invert: Bool = false,
                selectKeyCode: UInt16? = 28) {
        self.device = device; self.name = name; self.axis = axis; self.invert = invert
        self.selectKeyCode = selectKeyCode
    }
}

/// A knob that sets the volume (`VolumeKnobSource`): the knob, found and read as the rotary
/// encoder is, and the detents that make one step.
public struct VolumeKnobOptions: Equatable, Sendable {
    public var knob: RotaryOptions
    public var detentsPerStep: Int
    public init(knob: RotaryOptions, detentsPerStep: Int) {
        self.knob = knob; self.detentsPerStep = detentsPerStep
    }
}
