import KioskConfig

/// 8-bit premultiplied ARGB arithmetic, rounded as pixman rounds it.
enum PremultipliedMath {
    /// `a × b / 255`, rounded (pixman's `MUL_UN8`).
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a * b + 0x80
        return ((t >> 8) + t) >> 8
    }

    /// A coverage (clamped to 0…1) as 0…255.
    static func byte(_ coverage: Float) -> UInt32 {
        UInt32((max(0, min(1, coverage)) * 255).rounded())
    }

    /// Every channel of `pixel` times `m` / 255.
    static func scaled(_ pixel: UInt32, by m: UInt32) -> UInt32 {
        if m == 255 { return pixel }
        if m == 0 { return 0 }
        return multiply(pixel >> 24, m) << 24 | multiply((pixel >> 16) & 0xFF, m) << 16
            | multiply((pixel >> 8) & 0xFF, m) << 8 | multiply(pixel & 0xFF, m)
    }

    /// A straight-alpha colour premultiplied.
    static func premultiplied(_ color: ARGBColor) -> UInt32 {
        let a = color >> 24
        return a << 24 | multiply((color >> 16) & 0xFF, a) << 16 | multiply((color >> 8) & 0xFF, a) << 8 | multiply(color & 0xFF, a)
    }

    /// `source` (premultiplied) times the coverage `m`, over `destination`.
    static func over(_ source: UInt32, coverage m: UInt32, onto destination: UInt32) -> UInt32 {
        let s = scaled(source, by: m)
        let keep = 255 - (s >> 24)
        let d = scaled(destination, by: keep)
        return ((s >> 24) + (d >> 24)) << 24 | (((s >> 16) & 0xFF) + ((d >> 16) & 0xFF)) << 16
            | (((s >> 8) & 0xFF) + ((d >> 8) & 0xFF)) << 8 | ((s & 0xFF) + (d & 0xFF))
    }
}
