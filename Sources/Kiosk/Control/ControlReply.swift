import Foundation
import Input

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
    public init(index: Int, offset: Double, itemCount: Int, width: Int, height: Int, fps: Double,
                foreground: Bool = false, blanked: Bool = false, frames: Int = 0) {
        self.index = index; self.offset = offset; self.itemCount = itemCount
        self.width = width; self.height = height; self.fps = fps
        self.foreground = foreground; self.blanked = blanked; self.frames = frames
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
    /// The command failed or was refused; nothing changed.
    case error(String)

    /// The reply as one JSON line (without the newline).
    public func line(command: String?, requestID: JSONValue?) -> String {
        var fields: [(String, String)] = [("reply", EventLog.quote(command ?? "error"))]
        if let requestID { fields.append(("id", Self.encode(requestID))) }
        switch self {
        case .ok: fields.append(("ok", "true"))
        case .screenshot(let path): fields += [("ok", "true"), ("path", EventLog.quote(path))]
        case .error(let message): fields += [("ok", "false"), ("error", EventLog.quote(message))]
        case .state(let s):
            fields += [("ok", "true"), ("index", String(s.index)), ("offset", Self.number(s.offset)),
                       ("item_count", String(s.itemCount)), ("width", String(s.width)), ("height", String(s.height)),
                       ("fps", Self.number(s.fps)), ("frames", String(s.frames)), ("foreground", String(s.foreground)), ("blanked", String(s.blanked))]
        }
        return "{" + fields.map { "\(EventLog.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
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
        case .string(let s): return EventLog.quote(s)
        case .number(let d): return number(d)
        case .bool(let b): return String(b)
        default: return "null"
        }
    }
}
