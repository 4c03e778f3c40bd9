import Foundation
import KioskConfig
import Logging
import Raster
import XCTest
@testable import Cards

/// A temporary folder removed at the end of the test.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "cards-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    @discardableResult
    func write(_ name: String, text: String) -> String { write(name, Array(text.utf8)) }
}

/// Pictures made in code, so tests need no binary fixtures.
enum TestPictures {
    /// A landscape-like picture: sky gradient, a sun, hills; a red block marks the top-left
    /// corner and a blue one the top-right (orientation tests look for them).
    ///
    /// What depends on the column only (the hill's height, its sine and cosine) is worked out
    /// once per column, what depends on the row only once per row, and the pixels are written
    /// through the texture's pointer: the same pixels as per-pixel `sin`/`cos` in a fill
    /// closure, which took most of a 12-megapixel test's time (minutes under qemu-user).
    static func landscape(width: Int, height: Int, markers: Bool = false) -> Texture {
        let texture = Texture(width: width, height: height)
        let hills = UnsafeMutablePointer<Double>.allocate(capacity: width)
        let sunX = UnsafeMutablePointer<Double>.allocate(capacity: width)
        let groundRed = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { hills.deallocate(); sunX.deallocate(); groundRed.deallocate() }
        var x = 0
        while x < width {
            let fx = Double(x) / Double(width)
            hills[x] = 0.62 + 0.08 * sin(fx * 7.0) + 0.04 * cos(fx * 17.0)
            let dx = fx - 0.7
            sunX[x] = dx * dx
            groundRed[x] = UInt32(30 + 40 * fx) << 16
            x += 1
        }
        var y = 0
        while y < height {
            let fy = Double(y) / Double(height)
            let row = texture.pixels + y * width
            let ground = 0xFF00_0000 | UInt32(70 + 60 * (1 - fy)) << 8 | 40
            let dy = fy - 0.35, sunY = dy * dy
            let sky = 0xFF00_0000 | UInt32(250 - 120 * fy) << 16 | UInt32(160 + 60 * fy) << 8 | UInt32(120 + 120 * fy)
            x = 0
            while x < width {
                if fy > hills[x] {
                    row[x] = ground | groundRed[x]
                } else if sunX[x] + sunY < 0.006 {
                    row[x] = 0xFFFF_E8A0
                } else {
                    row[x] = sky
                }
                x += 1
            }
            if markers && fy < 0.2 {
                x = 0
                while x < width {
                    let fx = Double(x) / Double(width)
                    if fx < 0.2 { row[x] = 0xFFFF_0000 } else if fx > 0.8 { row[x] = 0xFF00_00FF }
                    x += 1
                }
            }
            y += 1
        }
        return texture
    }

    /// An SVG icon: a rounded square with a gradient and a white play triangle.
    static let iconSVG = """
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#4fb3ff"/><stop offset="1" stop-color="#2a5bd7"/></linearGradient></defs>
      <rect x="4" y="4" width="56" height="56" rx="14" fill="url(#g)"/>
      <path d="M26 20 L46 32 L26 44 Z" fill="#ffffff"/>
    </svg>
    """

    /// A minimal PNG whose header claims `width × height` (no image data follows).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for v in [width, height] { ihdr += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        ihdr += [8, 6, 0, 0, 0]
        let crc = crc32(ihdr)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// A real JPEG whose SOF header is rewritten to claim `width × height`.
    static func jpegClaiming(width: Int, height: Int) -> [UInt8] {
        var bytes = JPEGEncoder.encode(landscape(width: 32, height: 24))
        var i = 2
        while i + 9 < bytes.count {
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
                return bytes
            }
            i += 2 + length
        }
        return bytes
    }
}

extension Texture {
    /// The straight (un-premultiplied) colour of a pixel as (a, r, g, b).
    func argb(_ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
        let p = self[x, y]
        let a = Int(p >> 24)
        guard a > 0 else { return (0, 0, 0, 0) }
        func c(_ v: UInt32) -> Int { min(255, (Int(v & 0xFF) * 255 + a / 2) / a) }
        return (a, c(p >> 16), c(p >> 8), c(p))
    }

    /// Every pixel, for comparing two textures.
    func pixelArray() -> [UInt32] { Array(UnsafeBufferPointer(start: pixels, count: width * height)) }

    /// How far this texture's pixels are from `other`'s (the same size), leaving out the pixels
    /// `skipping` names: the largest difference of any channel, where, and how many pixels have
    /// a channel more than 10 apart.
    func channelDifference(from other: Texture, skipping: (Int, Int) -> Bool = { _, _ in false })
        -> (largest: Int, at: (x: Int, y: Int), overTen: Int) {
        var out = (largest: 0, at: (x: 0, y: 0), overTen: 0)
        for y in 0..<height {
            for x in 0..<width where !skipping(x, y) {
                let p = self[x, y], q = other[x, y]
                var worst = 0
                for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                    worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)))
                }
                if worst > out.largest { (out.largest, out.at) = (worst, (x, y)) }
                if worst > 10 { out.overTen += 1 }
            }
        }
        return out
    }
}
