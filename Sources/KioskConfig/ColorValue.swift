/// Reads and writes colours as the config spells them: `"#RRGGBB"` or `"#AARRGGBB"`.
public enum ColorValue {
    /// `"#RRGGBB"` (opaque) or `"#AARRGGBB"` → 0xAARRGGBB; nil for anything else.
    public static func parse(_ text: String) -> ARGBColor? {
        let u = Array(text.utf8)
        guard u.first == UInt8(ascii: "#"), u.count == 7 || u.count == 9 else { return nil }
        var v: UInt32 = 0
        for c in u.dropFirst() {
            guard let d = hexDigit(c) else { return nil }
            v = v << 4 | d
        }
        return u.count == 7 ? 0xFF00_0000 | v : v
    }

    /// The shortest spelling that reads back as `color`: `#RRGGBB` when opaque.
    public static func format(_ color: ARGBColor) -> String {
        func hex(_ v: UInt32, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return color >> 24 == 0xFF ? "#" + hex(color & 0xFF_FFFF, 6) : "#" + hex(color, 8)
    }

    private static func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
