import Foundation

/// `[update]`: where the kiosk fetches its system updates (RAUC bundles) and when
/// (docs/updates.md). Used by `kiosk-carousel update check` (root, from its timer), never by the
/// running kiosk.
public struct UpdateSettings: Equatable, Sendable {
    /// The bundle's URL (`https://…` or `http://…`); nil: no update from a server.
    public var url: String?
    /// Seconds between two checks; nil: every run of the timer when `url` is set.
    public var checkEvery: Double?
    /// When checking and installing is allowed (local time); nil: at any time.
    public var window: TimeWindow?
    /// A PEM file of the only certificates the update and content servers' TLS certificates may
    /// chain to (the vendor's CA, or the server's own self-signed certificate), instead of the
    /// system's; set, `http://` URLs are refused. nil: the system's certificates.
    public var ca: String?
    public init() {}
}

/// `[content]`: a content bundle (a signed archive of a `kiosk-carousel/` folder, as on a USB
/// stick) fetched from a server, checked and made current as a stick's would be (docs/updates.md).
/// Its checks and its window are `[update]`'s.
public struct ContentSourceSettings: Equatable, Sendable {
    /// The content bundle's URL; nil: none.
    public var url: String?
    public init() {}
}

/// Times of day, `from` up to (not including) `to`, in minutes after local midnight; a window
/// whose `to` is earlier than its `from` crosses midnight (`22:00-06:00`).
public struct TimeWindow: Equatable, Sendable {
    /// 0…1439.
    public var from: Int
    /// 0…1440.
    public var to: Int
    public init(from: Int, to: Int) { self.from = from; self.to = to }

    /// True when `minute` (after local midnight, 0…1439) is inside.
    public func contains(minute: Int) -> Bool {
        from < to ? (minute >= from && minute < to) : (minute >= from || minute < to)
    }

    /// `"22:00-06:00"`.
    public var description: String { ScheduleWindow.format(minutes: from) + "-" + ScheduleWindow.format(minutes: to) }
}

/// Lengths of time as the config writes them: `"90s"`, `"15m"`, `"6h"`, `"1d"`, `"1h30m"`.
public enum DurationText {
    static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// Seconds in `text`; nil when it is not a duration (a bare number has no unit: refused).
    public static func seconds(_ text: String) -> Double? {
        var total = 0.0, digits = "", any = false
        for c in text.trimmingWhitespace() {
            if c.isASCII && c.isNumber { digits.append(c); continue }
            guard let unit = units[c], let n = Double(digits), !digits.isEmpty else { return nil }
            total += n * unit
            digits = ""
            any = true
        }
        return any && digits.isEmpty ? total : nil
    }

    /// `"6h"`, `"90s"`, `"1h30m"`.
    public static func describe(seconds: Double) -> String {
        var left = Int(seconds.rounded()), out = ""
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] where left >= size {
            out += "\(left / size)\(unit)"
            left %= size
        }
        if left > 0 || out.isEmpty { out += "\(left)s" }
        return out
    }
}

/// The URLs the updater downloads: `https://` (or plain `http://`, for a server on the local
/// network: the bundle's signature is what is trusted, not the transport) with a host, no
/// user name or password in them (they would be logged), no spaces.
public enum DownloadURL {
    /// Why `text` cannot be downloaded; nil when it can.
    public static func problem(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            return "\(ValueFormat.quoted(text)) is not an https:// or http:// URL"
        }
        guard !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            return "\(ValueFormat.quoted(text)) has a space or a control character in it (write %20 for a space)"
        }
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            return "\(ValueFormat.quoted(text)) has no host (write https://HOST/PATH)"
        }
        guard components.user == nil, components.password == nil else {
            return "\(ValueFormat.quoted(text)) has a user name or password in it; the kiosk does not send those"
        }
        return nil
    }

    /// The file name a download of `url` is kept under: its last path component (letters,
    /// digits, `.`, `-`, `_` only), or `download` when it has none.
    public static func fileName(_ url: String) -> String {
        let last = URLComponents(string: url).map { ($0.path as NSString).lastPathComponent } ?? ""
        let safe = String(last.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        return safe.hasPrefix(".") || safe.allSatisfy({ $0 == "_" || $0 == "." }) ? "download" : safe
    }
}
