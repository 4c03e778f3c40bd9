import CarouselCore

/// The whole validated configuration of a kiosk: what `config.toml` says, with every default
/// filled in and every relative path resolved against the config file's folder.
public struct KioskConfiguration: Equatable, Sendable {
    /// The file it came from (empty for built-in defaults).
    public var file = ""
    public var display = DisplaySettings()
    public var carousel = CarouselOptions()
    public var gestures = GestureOptions()
    public var input = InputSettings()
    public var idle = IdleSettings()
    public var theme = Theme()
    public var cards = CardSettings()
    public var control = ControlSettings()
    public var actions = ActionSettings()
    public var items: [ItemConfig] = []
    public init() {}
}

/// `[display]`.
public struct DisplaySettings: Equatable, Sendable {
    public enum Backend: String, CaseIterable, Sendable { case auto, drm, fbdev, headless }
    public var backend = Backend.auto
    /// `/dev/dri/cardN` or `/dev/fbN`; nil: the first usable one.
    public var device: String?
    /// Connector name such as `HDMI-A-1`; nil: the first connected.
    public var connector: String?
    /// `WIDTHxHEIGHT@HZ` or `WIDTHxHEIGHT`; nil: the preferred mode.
    public var mode: String?
    /// Software rotation in degrees: 0, 90, 180, 270.
    public var rotation = 0
    /// Dumb buffers: 2 or 3.
    public var buffers = 2
    /// Render threads; nil: the number of cores, at most 4.
    public var renderThreads: Int?
    /// Frame size of the headless backend.
    public var headlessSize = (width: 1280, height: 720)
    public init() {}
    public static func == (a: DisplaySettings, b: DisplaySettings) -> Bool {
        a.backend == b.backend && a.device == b.device && a.connector == b.connector && a.mode == b.mode
            && a.rotation == b.rotation && a.buffers == b.buffers && a.renderThreads == b.renderThreads
            && a.headlessSize == b.headlessSize
    }
}

/// `[input]` and its `[input.rotary]` table (the dial lives in `GestureOptions`).
public struct InputSettings: Equatable, Sendable {
    public var seat = "seat0"
    /// Fixed device paths (libinput's path backend); empty: udev on `seat`.
    public var devices: [String] = []
    /// libinput's 2×3 calibration matrix `[a, b, c, d, e, f]`, or nil.
    public var calibration: [Double]?
    public var rotary: RotarySettings?
    /// Key code names (`KEY_A`…) bound to kiosk keys, beyond the defaults.
    public var keymap: [String: KeyName] = [:]
    public init() {}
}

/// `[input.rotary]`: a knob read with libevdev.
public struct RotarySettings: Equatable, Sendable {
    public enum Axis: String, CaseIterable, Sendable {
        case relDial = "REL_DIAL", relWheel = "REL_WHEEL", relHWheel = "REL_HWHEEL", relX = "REL_X", absX = "ABS_X"
    }
    public var device: String?
    public var name: String?
    public var axis = Axis.relDial
    public var invert = false
    public var selectKey = "KEY_ENTER"
    public init() {}
}

/// `[idle]`: what happens when nobody touches the kiosk. Zero disables a stage.
public struct IdleSettings: Equatable, Sendable {
    public var attractAfter = 0.0
    public var attractInterval = 5.0
    public var homeAfter = 0.0
    public var homeItem = 0
    public var blankAfter = 0.0
    public init() {}
}

/// A colour as 0xAARRGGBB (straight, not premultiplied).
public typealias ARGBColor = UInt32

/// `[theme]`: the look of the screen and the default look of every card.
public struct Theme: Equatable, Sendable {
    public var background: ARGBColor = 0xFF10_1418
    /// Bottom colour of a vertical gradient; nil: flat `background`.
    public var backgroundBottom: ARGBColor? = 0xFF28_3440
    public var card = CardStyle()
    public var showTitle = true
    public var showPageIndicator = true
    /// Hide the page indicator above this many items.
    public var pageIndicatorMaxItems = 30
    public init() {}
}

/// The look of one card: `[theme]` defaults, overridden per `[[item]]`.
public struct CardStyle: Equatable, Sendable {
    public var background: ARGBColor = 0xFF30_3A46
    public var backgroundBottom: ARGBColor?
    public var borderWidth = 0.0
    public var borderColor: ARGBColor = 0xFFFF_FFFF
    public var cornerRadius = 12.0
    public var shadow = false
    public var font = "DejaVu Sans"
    public var titleSize = 28.0
    public var titleColor: ARGBColor = 0xFFFF_FFFF
    public var subtitleSize = 18.0
    public var subtitleColor: ARGBColor = 0xFFC8_D0D8
    public var textAlign = "center"
    public var titleLines = 2
    /// `cover` or `contain`.
    public var imageFit = "cover"
    public init() {}
}

/// `[cards]`.
public struct CardSettings: Equatable, Sendable {
    public var cacheMB = 64
    public var workers = 2
    public init() {}
}

/// `[control]`.
public struct ControlSettings: Equatable, Sendable {
    public var socket: String?
    public init() {}
}

/// `[actions]`.
public struct ActionSettings: Equatable, Sendable {
    public var env: [String: String] = [:]
    public var workingDirectory: String?
    public init() {}
}

/// What selecting an item does.
public enum ItemAction: Equatable, Sendable {
    case none
    case exec(argv: [String], mode: ExecMode, timeout: Double?)
    case emit(String)
    public enum ExecMode: String, Sendable { case foreground, background }
}

/// One `[[item]]`.
public struct ItemConfig: Equatable, Sendable {
    public var id: String
    public var title: String
    public var subtitle: String?
    /// Absolute path of the image, if any.
    public var image: String?
    public var action: ItemAction = .none
    public var style: CardStyle
    public init(id: String, title: String, subtitle: String? = nil, image: String? = nil, style: CardStyle = CardStyle()) {
        self.id = id; self.title = title; self.subtitle = subtitle; self.image = image; self.style = style
    }
}
