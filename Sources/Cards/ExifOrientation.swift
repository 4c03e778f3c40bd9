import Raster

/// The EXIF `Orientation` tag (0x0112) of a JPEG: how the stored pixels must be turned to show
/// the picture upright. Cameras store portrait photos as landscape pixels plus this tag.
public enum ExifOrientation: Int, CaseIterable, Sendable {
    case up = 1, mirrored = 2, down = 3, mirroredDown = 4, transposed = 5, right = 6, transverse = 7, left = 8

    /// True when width and height swap (the picture is turned a quarter).
    public var swapsSides: Bool { rawValue >= 5 }

    /// The tag from a JPEG's APP1 `Exif` segment; `.up` when there is none or it is unreadable.
    public static func read(jpeg bytes: [UInt8]) -> ExifOrientation {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return .up }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                  // fill byte
            if marker == 0xDA || marker == 0xD9 { return .up }      // start of scan / end: no more headers
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return .up }
            if marker == 0xE1, length >= 8,
               Array(bytes[(i + 4)..<(i + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return fromTIFF(bytes[(i + 10)..<(i + 2 + length)]) ?? .up
            }
            i += 2 + length
        }
        return .up
    }

    /// Reads IFD0's orientation entry from a TIFF block ("II" or "MM" byte order).
    static func fromTIFF(_ tiff: ArraySlice<UInt8>) -> ExifOrientation? {
        let t = Array(tiff)
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + k * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, let value = u16(entry + 8) else { return nil }
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }

    /// For a pixel of the upright picture (`dx`, `dy`), where it is in the stored pixels of a
    /// `width × height` image.
    @inline(__always)
    func source(dx: Int, dy: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (dx, dy)
        case .mirrored: return (w - 1 - dx, dy)
        case .down: return (w - 1 - dx, h - 1 - dy)
        case .mirroredDown: return (dx, h - 1 - dy)
        case .transposed: return (dy, dx)
        case .right: return (dy, h - 1 - dx)
        case .transverse: return (w - 1 - dy, h - 1 - dx)
        case .left: return (w - 1 - dy, dx)
        }
    }

    /// The upright picture of `texture` (the same texture for `.up`).
    func apply(to texture: Texture) -> Texture {
        if self == .up { return texture }
        let w = texture.width, h = texture.height
        let out = swapsSides ? Texture(width: h, height: w) : Texture(width: w, height: h)
        let ow = out.width
        for dy in 0..<out.height {
            for dx in 0..<ow {
                let s = source(dx: dx, dy: dy, width: w, height: h)
                out.pixels[dy * ow + dx] = texture.pixels[s.y * w + s.x]
            }
        }
        return out
    }
}
