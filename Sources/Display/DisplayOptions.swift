import Foundation

/// What the display backends are asked for (the `[display]` table, without the config types:
/// `Display` does not depend on `KioskConfig`).
public struct DisplayOptions: Equatable, Sendable {
    /// `/dev/dri/cardN` or `/dev/fbN`; nil: the first usable one.
    public var device: String?
    /// Connector name such as `HDMI-A-1`; nil: the first connected (DRM only).
    public var connector: String?
    /// `WIDTHxHEIGHT@HZ` or `WIDTHxHEIGHT`; nil: the preferred mode (DRM only).
    public var mode: String?
    /// Scan-out buffers: 2 or 3 (DRM); fbdev double-buffers when the driver allows it.
    public var buffers: Int
    /// Software rotation.
    public var rotation: DisplayRotation
    /// The render scale the display starts with (`RenderScale`, 0.5…1).
    public var renderScale: Double

    public init(device: String? = nil, connector: String? = nil, mode: String? = nil, buffers: Int = 2,
                rotation: DisplayRotation = .none, renderScale: Double = 1) {
        self.device = device; self.connector = connector; self.mode = mode
        self.buffers = buffers; self.rotation = rotation; self.renderScale = RenderScale.clamp(renderScale)
    }
}

/// A requested mode: `1920x1080` or `1920x1080@60`.
struct ModeRequest: Equatable {
    var width: Int
    var height: Int
    /// Hz; nil: any refresh rate (the preferred one when several match).
    var refresh: Double?

    /// Parses `WIDTHxHEIGHT[@HZ]`; nil when malformed.
    init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = t.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let wh = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]), w > 0, h > 0, w <= 16384, h <= 16384 else { return nil }
        width = w; height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz < 1000 else { return nil }
            refresh = hz
        }
    }

    /// The best of `modes` matching this request: same size, refresh within 0.5 Hz when given;
    /// the preferred one first, then the highest refresh.
    func pick(from modes: [DRMMode]) -> DRMMode? {
        let fits = modes.filter { m in
            m.width == width && m.height == height
                && (refresh.map { abs(m.refreshRate - $0) < 0.51 || abs(Double(m.info.vrefresh) - $0) < 0.51 } ?? true)
        }
        return fits.first(where: \.isPreferred) ?? fits.max { $0.refreshRate < $1.refreshRate }
    }
}
