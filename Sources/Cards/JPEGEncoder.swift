import CCardLibs
import Raster

/// Textures to JPEG bytes with libjpeg-turbo, optionally tagged with an EXIF orientation.
/// Used to make test pictures and the benchmark's big photo at run time.
public enum JPEGEncoder {
    /// JPEG bytes of `texture` (alpha ignored) at `quality` (1…100), 4:2:0.
    public static func encode(_ texture: Texture, quality: Int = 88, orientation: ExifOrientation? = nil) -> [UInt8] {
        guard let tj = tjInitCompress() else { return [] }
        defer { tjDestroy(tj) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(tj, UnsafeMutableRawPointer(texture.pixels).assumingMemoryBound(to: UInt8.self),
                                 Int32(texture.width), Int32(texture.width * 4), Int32(texture.height),
                                 Int32(TJPF_BGRA.rawValue), &out, &size, Int32(TJSAMP_420.rawValue),
                                 Int32(max(1, min(100, quality))), 0)
        guard status == 0, let out else { return [] }
        defer { tjFree(out) }
        var bytes = Array(UnsafeBufferPointer(start: out, count: Int(size)))
        if let orientation { bytes.insert(contentsOf: exifSegment(orientation), at: 2) }
        return bytes
    }

    /// An APP1 segment holding a little-endian TIFF with one IFD0 entry: Orientation.
    static func exifSegment(_ o: ExifOrientation) -> [UInt8] {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]          // "II", 42, IFD0 at 8
        tiff += [1, 0]                                                 // one entry
        tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(o.rawValue), 0, 0, 0]   // 0x0112 SHORT ×1
        tiff += [0, 0, 0, 0]                                           // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
