import Cards
import Foundation

/// The facts a fleet watches, gathered by the loop (`KioskApp.health`): what the metrics file
/// (`PrometheusText`) and the control socket's `state` reply both say. Times are unix seconds
/// (wall clock), counters count since the process started.
public struct KioskHealth: Equatable, Sendable {
    /// The error kinds counted in `errors` (each is always written, 0 until it happens).
    public static let errorKinds = ["action", "card", "config_reload", "display", "video"]

    /// Frames presented (black frames of a blank not counted).
    public var framesPresented = 0
    /// When the last frame was presented; nil: none yet.
    public var lastFrameTime: Double?
    /// When the last event from an input device was read; nil: none yet.
    public var lastInputTime: Double?
    /// The current item's index and id (nil id: no items).
    public var currentIndex = 0
    public var currentID: String?
    /// The ids of the items shown now (each gets a selections counter, 0 until selected).
    public var itemIDs: [String] = []
    /// Selections per item id (items of an earlier configuration keep theirs).
    public var selections: [String: Int] = [:]
    /// Errors by kind (`errorKinds`): `config_reload` (a reload refused), `card` (a card that
    /// cannot show its file, once per file and reason), `display` (a frame the display refused),
    /// `action` (an action that could not start, or timed out), `video` (a clip that could not play).
    public var errors: [String: Int] = [:]
    /// 1 for the configuration loaded at start, +1 at every reload applied.
    public var configGeneration = 1
    /// Reloads refused (the running configuration was kept).
    public var configLoadErrors = 0
    /// A screen is connected (the display has a size).
    public var displayConnected = false
    /// `WIDTHxHEIGHT@HZ` of the scene on the screen (the rotated size); nil when not connected.
    public var displayMode: String?
    /// The screen is blanked by the idle controller.
    public var blanked = false
    /// Input devices open now (libinput's devices, the rotary encoder).
    public var inputDevices = 0
    /// Bytes held by the card face cache.
    public var cardCacheBytes = 0
    /// How long presented frames took to draw and hand to the display (`FrameTimesComponent`).
    public var frameTimes = FrameTimeHistogram()
    /// Page flips that reached the screen more than a refresh late, or never
    /// (`DisplayBackend.flipsMissed`).
    public var flipsMissed = 0
    /// The process's resident memory (`/proc/self/statm`), read when the facts are written; nil:
    /// not read.
    public var residentBytes: Int?
    /// What malloc holds (`HeapTuning.usage`), read when the facts are written; nil: not read.
    /// Unlike the resident memory its bytes in use do not move with freed pages the arenas
    /// keep, so a leak shows in them plainly.
    public var heap: HeapTuning.Usage?
    /// When the process started.
    public var startTime = 0.0
    /// True inside a `[[schedule]]` window, false outside; nil: no schedule.
    public var scheduleOpen: Bool?
    /// The running version (os-release `IMAGE_VERSION`, else the program's) and root slot
    /// (`rauc.slot=`, `none` off the image).
    public var version = ""
    public var slot = "none"
    /// The last update's state (`UpdateStatus.State`) and message seen by this process; nil: none.
    public var updateState: String?
    public var updateMessage: String?
    /// Boots that went back to the old slot, seen by this process (the image's boot report).
    public var rollbacks = 0
    /// Speech is on (`[accessibility] speech`, the jack, the key); nil: no speech component.
    public var speechOn: Bool?
    /// The volume keys' level, 0…1 (back to the default at idle); nil: no speech component.
    public var volume: Double?
    /// What the TV said over HDMI-CEC and the messages sent to it; nil: no CEC (`[display] power`).
    public var tv: TVHealth?

    public init() {}

    /// Reads the resident set size from `/proc/self/statm` (its second field, in pages).
    public static func readResidentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The TV at the end of the HDMI cable, as HDMI-CEC tells it (`CECComponent`, docs/cec.md).
public struct TVHealth: Equatable, Sendable {
    /// What the TV last reported (`<Report Power Status>`): `on`, `standby`, `standby_to_on`,
    /// `on_to_standby`, or `unknown` before it reported anything.
    public var power: String
    /// When it reported it (unix seconds); nil: never.
    public var reportedAt: Double?
    /// Messages handed to the adapter, and messages that failed (not sent, not acknowledged,
    /// no reply, refused).
    public var messagesSent: Int
    public var messagesFailed: Int

    public init(power: String, reportedAt: Double?, messagesSent: Int, messagesFailed: Int) {
        self.power = power
        self.reportedAt = reportedAt
        self.messagesSent = messagesSent
        self.messagesFailed = messagesFailed
    }
}
