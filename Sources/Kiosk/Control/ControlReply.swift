import Foundation
import JSON
import KioskConfig

/// What the loop reports for `state`.
public struct ControlState: Equatable, Sendable {
    public var index: Int
    public var offset: Double
    public var itemCount: Int
    public var width: Int
    public var height: Int
    /// Frames shown per second, averaged by the loop.
    public var fps: Double
    /// Frames presented since the start (black frames of a blank not counted).
    public var frames: Int
    /// True while a foreground program owns the screen.
    public var foreground: Bool
    /// True while the screen is blanked by the idle controller.
    public var blanked: Bool
    /// The title of the message card shown instead of the carousel (the config's problems, the
    /// empty carousel, a USB stick's result); nil: the carousel is shown.
    public var card: String?
    /// The language shown (`"en"`, `"de"`: `KioskBehavior.language`).
    public var language: String
    /// What the metrics file says too (the fields after `blanked`); nil: not known.
    public var health: KioskHealth?
    public init(index: Int, offset: Double, itemCount: Int, width: Int, height: Int, fps: Double,
                foreground: Bool = false, blanked: Bool = false, frames: Int = 0, card: String? = nil, language: String = "en", health: KioskHealth? = nil) {
        self.index = index; self.offset = offset; self.itemCount = itemCount
        self.width = width; self.height = height; self.fps = fps
        self.foreground = foreground; self.blanked = blanked; self.frames = frames
        self.card = card
        self.language = language
        self.health = health
    }
}

/// A reply line. Replies carry `"reply"` (the command's name, or `"error"` when the line was
/// unreadable) and `"ok"`; events carry `"event"` instead, so clients can tell them apart.
public enum ControlReply: Equatable, Sendable {
    /// The command was accepted.
    case ok
    /// The answer to `state`.
    case state(ControlState)
    /// The screenshot was written to `path`.
    case screenshot(path: String)
    /// The answer to `reload`: the file was adopted, or refused for `problems` (the running
    /// configuration, or the problem card, stays). The fields are the `reloaded` event's
    /// (`ReloadReport`).
    case reload(adopted: Bool, problems: [ConfigDiagnostic])
    /// The command failed or was refused; nothing changed.
    case error(String)

    /// The reply as one JSON line (without the newline).
    public func line(command: String?, requestID: JSONValue?) -> String {
        var fields: [(String, String)] = [("reply", JSONString.quoted(command ?? "error"))]
        if let requestID { fields.append(("id", Self.encode(requestID))) }
        switch self {
        case .ok: fields.append(("ok", "true"))
        case .screenshot(let path): fields += [("ok", "true"), ("path", JSONString.quoted(path))]
        case .reload(let adopted, let problems): fields += ReloadReport.fields(adopted: adopted, problems: problems)
        case .error(let message): fields += [("ok", "false"), ("error", JSONString.quoted(message))]
        case .state(let s):
            fields += [("ok", "true"), ("index", String(s.index)), ("offset", Self.number(s.offset)),
                       ("item_count", String(s.itemCount)), ("width", String(s.width)), ("height", String(s.height)),
                       ("fps", Self.number(s.fps)), ("frames", String(s.frames)), ("foreground", String(s.foreground)), ("blanked", String(s.blanked)),
                       ("card", s.card.map(JSONString.quoted) ?? "null"), ("language", JSONString.quoted(s.language))]
            if let h = s.health { fields += Self.healthFields(h) }
        }
        return "{" + fields.map { "\(JSONString.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The `state` fields of `KioskHealth` (the metrics file's facts; times in unix seconds, null
    /// when none yet).
    static func healthFields(_ h: KioskHealth) -> [(String, String)] {
        func time(_ t: Double?) -> String { t.map { String(format: "%.3f", $0) } ?? "null" }
        func object(_ d: [String: Int]) -> String {
            "{" + d.keys.sorted().map { "\(JSONString.quoted($0)):\(d[$0]!)" }.joined(separator: ",") + "}"
        }
        var selections = h.selections
        for id in h.itemIDs where selections[id] == nil { selections[id] = 0 }
        var errors = h.errors
        for kind in KioskHealth.errorKinds where errors[kind] == nil { errors[kind] = 0 }
        return [
            ("item_id", h.currentID.map(JSONString.quoted) ?? "null"),
            ("last_frame_time", time(h.lastFrameTime)), ("last_input_time", time(h.lastInputTime)),
            ("selections", object(selections)), ("errors", object(errors)),
            ("config_generation", String(h.configGeneration)), ("config_load_errors", String(h.configLoadErrors)),
            ("display_connected", String(h.displayConnected)), ("display_mode", h.displayMode.map(JSONString.quoted) ?? "null"),
            ("input_devices", String(h.inputDevices)), ("card_cache_bytes", String(h.cardCacheBytes)),
            ("rss_bytes", h.residentBytes.map(String.init) ?? "null"), ("start_time", time(h.startTime)),
            ("schedule_open", h.scheduleOpen.map { String($0) } ?? "null"),
            ("version", JSONString.quoted(h.version)), ("slot", JSONString.quoted(h.slot)),
            ("update_state", h.updateState.map(JSONString.quoted) ?? "null"),
            ("update_message", h.updateMessage.map(JSONString.quoted) ?? "null"), ("rollbacks", String(h.rollbacks)),
            ("speech", h.speechOn.map { String($0) } ?? "null"),
            ("volume", h.volume.map { String(format: "%.1f", $0) } ?? "null"),
            ("tv_power", h.tv.map { JSONString.quoted($0.power) } ?? "null"),
            ("tv_power_time", time(h.tv?.reportedAt)),
            ("cec_sent", h.tv.map { String($0.messagesSent) } ?? "null"),
            ("cec_failed", h.tv.map { String($0.messagesFailed) } ?? "null"),
            ("frames_timed", String(h.frameTimes.count)),
            ("frame_seconds_median", h.frameTimes.quantile(0.5).map(number) ?? "null"),
            ("frame_seconds_p99", h.frameTimes.quantile(0.99).map(number) ?? "null"),
            ("flips_missed", String(h.flipsMissed)),
        ]
    }

    /// A finite number with at most 4 decimals (JSON has no NaN: those become null).
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
        return String(format: "%.4f", d)
    }

    /// Encodes the scalar JSON values an `id` may hold.
    static func encode(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return JSONString.quoted(s)
        case .number(let d): return number(d)
        case .bool(let b): return String(b)
        default: return "null"
        }
    }
}
