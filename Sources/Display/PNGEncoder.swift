import CZlib
import Foundation
import LinuxSystem
import Raster

/// Writes canvases as PNG (8-bit RGB or RGBA, zlib-compressed). Deterministic: the same pixels
/// always give the same bytes.
public enum PNGEncoder {
    /// Encodes `canvas`; with `alpha` the premultiplied pixels are un-premultiplied into RGBA,
    /// otherwise the X byte is ignored and RGB is written.
    public static func encode(_ canvas: Canvas, alpha: Bool = false) -> [UInt8] {
        let channels = alpha ? 4 : 3
        let rowBytes = 1 + canvas.width * channels
        var raw = [UInt8](repeating: 0, count: rowBytes * canvas.height)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<canvas.height {
                var o = y * rowBytes + 1
                let row = canvas.pixels + y * canvas.stride
                for x in 0..<canvas.width {
                    let p = row[x]
                    var r = UInt8((p >> 16) & 0xFF), g = UInt8((p >> 8) & 0xFF), b = UInt8(p & 0xFF)
                    if alpha {
                        let a = UInt32(p >> 24)
                        if a > 0 && a < 255 {
                            r = UInt8(min(255, (UInt32(r) * 255 + a / 2) / a))
                            g = UInt8(min(255, (UInt32(g) * 255 + a / 2) / a))
                            b = UInt8(min(255, (UInt32(b) * 255 + a / 2) / a))
                        }
                        out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = UInt8(a)
                    } else {
                        out[o] = r; out[o + 1] = g; out[o + 2] = b
                    }
                    o += channels
                }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = [UInt8]()
        ihdr.appendBigEndian(UInt32(canvas.width))
        ihdr.appendBigEndian(UInt32(canvas.height))
        ihdr += [8, alpha ? 6 : 2, 0, 0, 0]
        appendChunk(&png, "IHDR", ihdr)
        appendChunk(&png, "IDAT", deflate(raw))
        appendChunk(&png, "IEND", [])
        return png
    }

    /// Encodes `canvas` and writes it to `path` atomically (`AtomicFile`); a failure is a
    /// `FileWriteError` naming `path`.
    public static func write(_ canvas: Canvas, to path: String, alpha: Bool = false) throws(FileWriteError) {
        try AtomicFile.write(encode(canvas, alpha: alpha), to: path)
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] {
        var bound = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(bound))
        let rc = data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                compress2(dst.baseAddress, &bound, src.baseAddress, uLong(data.count), 6)
            }
        }
        precondition(rc == Z_OK, "zlib compress2 failed: \(rc)")
        return Array(out[0..<Int(bound)])
    }

    private static func appendChunk(_ png: inout [UInt8], _ type: String, _ body: [UInt8]) {
        png.appendBigEndian(UInt32(body.count))
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, nil, 0)
        crc = typeBytes.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        png += typeBytes
        png += body
        png.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF)); append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}
