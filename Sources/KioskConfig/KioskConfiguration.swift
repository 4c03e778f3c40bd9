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
    public var accessibility = AccessibilitySettings()
    public var cards = CardSettings()
    public var video = VideoSettings()
    /// `[audio]`: the sound output (docs/accessibility.md, "Sound").
    public var audio = AudioSettings()
    public var control = ControlSettings()
    public var metrics = MetricsSettings()
    public var actions = ActionSettings()
    /// `[usb]`: content from a USB stick (docs/usb.md).
    public var usb = USBSettings()
    /// `[update]`: system updates from a server (docs/updates.md).
    public var update = UpdateSettings()
    /// `[content]`: a content bundle from a server (docs/updates.md).
    public var contentSource = ContentSourceSettings()
    /// `[accessibility] speech`: when the kiosk speaks (docs/accessibility.md).
    public var speech = SpeechSettings()
    /// The imported content file whose tables replaced this file's (`[usb] content`); nil: none.
    public var importedContent: String?
    /// Why the imported content could not be used (the machine's own tables are then shown).
    public var importedContentProblems: [ConfigDiagnostic] = []
    /// The machine's own file's problems while the carousel runs on USB content anyway
    /// (`ImportedContent.rescue`); empty when the file is valid.
    public var machineProblems: [ConfigDiagnostic] = []
    /// Settings of the file that validate but will not do what they ask (`ConfigWarnings`; a
    /// text without a translation, from the decoder): `check-config` prints them after `OK`,
    /// `run` logs them.
    public var warnings: [ConfigDiagnostic] = []
    /// `[[schedule]]`: opening hours; empty: no schedule (always open).
    public var schedule: [ScheduleWindow] = []
    /// `[schedule_defaults]`: what happens outside every window.
    public var scheduleDefaults = ScheduleDefaults()
    /// `[items]`: where items come from besides `[[item]]`.
    public var itemsDirectory = ItemsDirectorySettings()
    /// Every item: the `[[item]]` tables in file order, then the `[items] directory` files.
    public var items: [ItemConfig] = []
    /// `[languages]`: the languages item texts are written in (docs/accessibility.md).
    public var languages = LanguagesSettings()
    public init() {}

    /// Imported content (`[usb] content`) is used: from USB sticks (`[usb] import`) or from a
    /// server (`[content] url`), which share the folder and its generations.
    public var takesImportedContent: Bool { usb.importEnabled || contentSource.url != nil }
}

/// `[items]`: a folder whose images become items, sorted by name.
public struct ItemsDirectorySettings: Equatable, Sendable {
    /// Absolute path of the folder; nil: no folder.
    public var directory: String?
    /// File name extensions taken from the folder (lower case, without the dot).
    public var extensions = ["png", "jpg", "jpeg", "svg", "webp"]
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
    /// Burn-in care: the scene moves by up to this many pixels each way (0: off).
    public var pixelShift = 0
    /// Seconds between two one-pixel steps of the pixel shift.
    public var pixelShiftInterval = 600.0
    /// The size frames are drawn at, as a fraction of the screen's (the display enlarges them).
    public var renderScale = RenderScaleSetting.fixed(1)
    /// How a blank switches the screen off: DPMS, the TV over HDMI-CEC, or both.
    public var power = ScreenPowerControl.dpms
    /// Turn the TV on over HDMI-CEC at start (and make the kiosk its active source).
    public var cecOnStart = false
    /// `/dev/cecN`; nil: the first adapter of an HDMI source (`CECAdapterChoice`).
    public var cecDevice: String?
    public init() {}
    /// `mode` parsed; nil when no mode is set.
    public var parsedMode: DisplayMode? { mode.flatMap(DisplayMode.init(parsing:)) }
    public static func == (a: DisplaySettings, b: DisplaySettings) -> Bool {
        a.backend == b.backend && a.device == b.device && a.connector == b.connector && a.mode == b.mode
            && a.rotation == b.rotation && a.buffers == b.buffers && a.renderThreads == b.renderThreads
            && a.headlessSize == b.headlessSize
            && a.pixelShift == b.pixelShift && a.pixelShiftInterval == b.pixelShiftInterval
            && a.renderScale == b.renderScale
            && a.power == b.power && a.cecOnStart == b.cecOnStart && a.cecDevice == b.cecDevice
    }
}

/// `[display] power`: what a blank switches off. `dpms`: the display's own power control (DPMS,
/// FBIOBLANK; a black frame without one); `cec`: the TV over HDMI-CEC (<Standby>, and
/// <Image View On> with <Active Source> on waking) with a black frame on the HDMI output;
/// `both`: DPMS and CEC (docs/cec.md).
public enum ScreenPowerControl: String, CaseIterable, Sendable {
    case dpms, cec, both
    /// The blank uses the display's power control.
    public var usesDPMS: Bool { self != .cec }
    /// The blank switches the TV over HDMI-CEC.
    public var usesCEC: Bool { self != .dpms }
}

/// `[display] render_scale`: a fixed fraction of the screen's size (0.5…1), or `auto`: 1 until
/// drags miss the refresh interval, then ½ (`RenderScaleGovernor`).
public enum RenderScaleSetting: Equatable, Sendable, CustomStringConvertible {
    case fixed(Double)
    case auto

    /// The scale frames start at: the fixed one, or 1 for `auto`.
    public var initial: Double {
        if case .fixed(let s) = self { return s }
        return 1
    }

    public var description: String {
        switch self {
        case .fixed(let s): return ValueFormat.number(s)
        case .auto: return "\"auto\""
        }
    }
}

/// A display mode as the config writes it: `"1920x1080"` or `"1920x1080@60"`.
public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Refresh rate in Hz; nil: any.
    public var refresh: Double?
    public init(width: Int, height: Int, refresh: Double? = nil) {
        self.width = width; self.height = height; self.refresh = refresh
    }

    /// Pixels a side may have.
    public static let sides = 1...16384
    /// The highest refresh rate a mode may ask for, in Hz (above 0).
    public static let maxRefresh = 1000.0

    /// Parses `WIDTHxHEIGHT` or `WIDTHxHEIGHT@HZ` (`sides` pixels, 0 < Hz ≤ `maxRefresh`); nil otherwise.
    public init?(parsing text: String) {
        guard let numbers = Self.shape(text), let w = numbers.0, let h = numbers.1,
              Self.sides.contains(w), Self.sides.contains(h) else { return nil }
        if let hz = numbers.2 { guard hz > 0, hz <= Self.maxRefresh else { return nil } }
        width = w; height = h; refresh = numbers.2
    }

    /// Whether `text` is written as a mode (digits `x` digits, optionally `@` and a number),
    /// whatever its numbers: such a text that does not parse has a number out of range.
    public static func isWrittenAsMode(_ text: String) -> Bool { shape(text) != nil }

    /// The numbers of `WIDTHxHEIGHT[@HZ]` (a width or height too long for an Int is nil), or
    /// nil when the text is not written that way.
    private static func shape(_ text: String) -> (Int?, Int?, Double?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, size.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let d = Double(parts[1]), d.isFinite, !parts[1].hasPrefix("+") else { return nil }
            hz = d
        }
        return (Int(size[0]), Int(size[1]), hz)
    }

    /// `WxH` or `WxH@Hz`.
    public var description: String {
        "\(width)x\(height)" + (refresh.map { "@" + ($0 == $0.rounded() ? String(Int($0)) : String($0)) } ?? "")
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
    /// `[input.volume_knob]`: a second knob that sets the volume (nil: none).
    public var volumeKnob: VolumeKnobSettings?
    /// Key code names (`KEY_A`…) bound to kiosk keys, beyond the defaults.
    public var keymap: [String: KeyName] = [:]
    /// Seconds after a key press during which another press of the same key is ignored (bounce
    /// keys, EN 301 549 5.8); 0: every press counts.
    public var bounceKeys: Double = 0
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

/// `[input.volume_knob]`: a knob of its own for the volume (EN 301 549 5.1.3.11), read with
/// libevdev as `[input.rotary]`'s; each `detentsPerStep` detents are one press of the
/// `volume_up` or `volume_down` key.
public struct VolumeKnobSettings: Equatable, Sendable {
    public var device: String?
    public var name: String?
    public var axis = RotarySettings.Axis.relDial
    public var invert = false
    public var detentsPerStep = 1
    public init() {}
}

/// `[idle]`: what happens when nobody touches the kiosk. Zero disables a stage.
public struct IdleSettings: Equatable, Sendable {
    public var attractAfter = 0.0
    public var attractInterval = 5.0
    /// Items per second to autoscroll in attract mode instead of stepping every
    /// `attractInterval`; 0: step.
    public var attractAutoscroll = 0.0
    public var homeAfter = 0.0
    /// Index of the item `homeAfter` returns to (`home_item` as an id is resolved to this).
    public var homeItem = 0
    public var blankAfter = 0.0
    /// Seconds before `homeAfter`/`blankAfter` act that "Do you need more time?" is shown (never in
    /// the first half of the wait); 0: none.
    public var warnBefore = 20.0
    /// `home_item` given as an id, until the loader resolves it against the items.
    var homeItemID: String?
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
    public var pageIndicator = PageIndicatorStyle()
    /// The focused item's title drawn over the carousel (shown when `showTitle`).
    public var titleOverlay = TitleOverlayStyle()
    /// The on-screen dial ring (drawn when `[input.dial]` is set and `showDial`).
    public var showDial = true
    public var dialRing = DialRingStyle()
    /// The plate behind notices and problem cards (`MessageCardRenderer`); no config key: the
    /// high-contrast look makes it opaque (`AccessibleLook`).
    public var messagePlate: ARGBColor = 0xB80A_0D10
    /// Notices' and problem cards' text size times this (`AccessibleLook`'s large text).
    public var messageTextScale = 1.0
    public init() {}
}

/// Where an overlay sits on the screen.
public enum OverlayPosition: String, CaseIterable, Sendable { case top, bottom }

/// `[theme.page_indicator]`: one dot per item, the current one highlighted.
public struct PageIndicatorStyle: Equatable, Sendable {
    public var color: ARGBColor = 0x66FF_FFFF
    public var currentColor: ARGBColor = 0xFFFF_FFFF
    /// Dot diameter in pixels.
    public var dotSize = 10.0
    /// Gap between dots in pixels.
    public var spacing = 10.0
    public var position = OverlayPosition.bottom
    /// Distance from the screen edge in pixels.
    public var margin = 24.0
    /// A rounded plate behind the dots; fully transparent (no config key): none. The
    /// high-contrast look makes it opaque (`AccessibleLook`).
    public var plate: ARGBColor = 0
    public init() {}
}

/// `[theme.title_overlay]`: the focused item's title over the carousel.
public struct TitleOverlayStyle: Equatable, Sendable {
    public var font = "DejaVu Sans"
    public var size = 32.0
    public var color: ARGBColor = 0xFFFF_FFFF
    /// A band behind the text; fully transparent: none.
    public var background: ARGBColor = 0x0000_0000
    public var position = OverlayPosition.bottom
    /// Distance from the screen edge in pixels.
    public var margin = 56.0
    /// Lines the title may wrap to before an ellipsis (no config key: 1; large text makes it 2,
    /// `AccessibleLook`).
    public var lines = 1
    public init() {}
}

/// `[theme.dial]`: how the on-screen dial ring is drawn.
public struct DialRingStyle: Equatable, Sendable {
    public var color: ARGBColor = 0x33FF_FFFF
    /// Line width of the ring's two circles in pixels.
    public var width = 2.0
    /// Fill between the circles; fully transparent: none.
    public var fill: ARGBColor = 0x14FF_FFFF
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
    /// `left`, `center` or `right`.
    public var textAlign = "center"
    public var titleLines = 2
    public var subtitleLines = 1
    /// Space between the card's edge and its text, in pixels; nil: 6 % of the card's smaller
    /// side, at least 4 (the cards renderer's own rule).
    public var padding: Double?
    /// Fraction of the card's height the shadow gradient covers, from the bottom (when `shadow`).
    public var shadowHeight = 0.55
    /// `cover` or `contain`.
    public var imageFit = "cover"
    /// An opaque band behind the text where it sits on a picture, instead of the soft text
    /// shadow; nil (no config key): none. The high-contrast look sets it (`AccessibleLook`).
    public var textPlate: ARGBColor?
    public init() {}
}

/// `[cards]`.
public struct CardSettings: Equatable, Sendable {
    public var cacheMB = 64
    public var workers = 2
    /// Images with more pixels than this (in millions) are refused before decoding.
    public var maxImageMegapixels = 50.0
    /// Seconds a placeholder face takes to fade into the finished card.
    public var fadeDuration = 0.2
    public init() {}
}

/// `[video]`: how video items play.
public struct VideoSettings: Equatable, Sendable {
    /// Play the clip of a video item on its card while the carousel rests on it.
    public var playCentred = true
    /// Seconds the carousel must have rested on a video item before its clip starts.
    public var startDelay = 0.3
    /// Most memory the decoded frames of all playing clips may hold, in MiB.
    public var budgetMB = 48
    /// Use the board's V4L2 memory-to-memory decoder when FFmpeg has one for the codec.
    public var hardware = VideoHardware.auto
    /// Software decoder threads per clip.
    public var threads = 1
    public init() {}
}

/// `[video] hardware`.
public enum VideoHardware: String, CaseIterable, Sendable {
    /// The V4L2 decoder when FFmpeg has one and it opens, else software (logged once).
    case auto
    /// Software decoding only.
    case off
}

/// `[control]`.
public struct ControlSettings: Equatable, Sendable {
    public var socket: String?
    public init() {}
}

/// `[metrics]`: the Prometheus text file for fleet monitoring (docs/control.md).
public struct MetricsSettings: Equatable, Sendable {
    /// The file, or a folder (node_exporter's textfile collector) that gets `kiosk_carousel.prom`;
    /// nil: no metrics file.
    public var file: String?
    /// Least seconds between two writes.
    public var interval = 5.0
    public init() {}
}

/// `[usb]`: a USB stick's `kiosk-carousel/` folder, checked and copied into `content`
/// (docs/usb.md).
public struct USBSettings: Equatable, Sendable {
    /// Sticks are looked at only when true.
    public var importEnabled = false
    /// The folder the imports are copied into (absolute); its `current` link names the last one.
    public var content = "/var/lib/kiosk-carousel/usb"
    /// A stick's folder larger than this many MiB is refused.
    public var maxMB = 4096
    /// Items on a stick may run programs (`action = { exec = … }`) only when true.
    public var allowExec = false
    /// The file system types (blkid's names: `vfat`, `exfat`, `ext4`, …) a stick may have;
    /// empty: any the kernel reads.
    public var fileSystems: [String] = []
    /// A FAT stick is read by mtools in a sandbox instead of mounted (`fat_without_mount`; on by
    /// default: docs/usb.md, "Reading FAT without a kernel mount").
    public var fatWithoutMount = true
    /// Seconds the confirmation card stays (a problem card stays twice as long); a touch ends it.
    public var noticeSeconds = 8.0
    public init() {}
}

/// `[actions]`.
public struct ActionSettings: Equatable, Sendable {
    /// Variables set for every launched program.
    public var env: [String: String] = [:]
    /// Pass the kiosk's own environment on too (`env` wins on a clash).
    public var inheritEnvironment = true
    /// Working directory of launched programs (absolute); an item's `cwd` overrides it.
    public var workingDirectory: String?
    /// Seconds the home key must be held to end a foreground program (0: it cannot be ended
    /// by a key; docs/actions.md, "Leaving a program").
    public var leaveHold: Double = 3
    public init() {}
}

/// What selecting an item does.
public enum ItemAction: Equatable, Sendable {
    case none
    /// `argv[0]` is absolute when written with a `/` (resolved against the config's folder),
    /// otherwise looked up in `PATH`. `cwd` is absolute or nil (then `[actions]`'s applies).
    /// `env`: variables for this program only, over `[actions.env]` (an empty value removes one).
    case exec(argv: [String], mode: ExecMode, timeout: Double?, cwd: String?, env: [String: String] = [:])
    case emit(String)
    /// Plays the item's video (`play = "fullscreen"`), then returns to the carousel.
    case play(PlayMode)
    public enum ExecMode: String, CaseIterable, Sendable { case foreground, background }
    public enum PlayMode: String, CaseIterable, Sendable {
        /// The whole screen, letterboxed; a touch, a key or the knob's button ends it early.
        case fullscreen
    }
}

/// One `[[item]]`.
public struct ItemConfig: Equatable, Sendable {
    public var id: String
    public var title: String
    public var subtitle: String?
    /// What the picture shows, in words (alt text): spoken after the title and subtitle while the
    /// carousel rests on the item (docs/accessibility.md); nil: nothing more is said.
    public var description: String?
    /// Absolute path of the image, if any.
    public var image: String?
    /// Absolute path of the video clip, if any (then `image` is nil).
    public var video: String?
    /// Absolute path of the still shown before the clip plays; nil: the clip's first frame.
    public var poster: String?
    /// The centred card plays its clip over and over (else once, keeping the last frame).
    public var loop = true
    /// A video item's clip plays its sound (`audio = true`; off by default).
    public var audio = false
    public var action: ItemAction = .none
    public var style: CardStyle
    /// Made from a file of `[items] directory` rather than an `[[item]]` table.
    public var fromDirectory = false
    /// Texts written per language: item key (`ItemConfig.translatableKeys`) → language code →
    /// text. `title` and `subtitle` hold the default language's; `localized(to:)` picks another.
    public var translations: [String: [String: String]] = [:]
    public init(id: String, title: String, subtitle: String? = nil, image: String? = nil, style: CardStyle = CardStyle()) {
        self.id = id; self.title = title; self.subtitle = subtitle; self.image = image; self.style = style
    }

    /// The files the card shows (its image, or its clip and poster): watched for changes.
    public var mediaFiles: [String] { [image, video, poster].compactMap { $0 } }
}
