import Display
import LinuxSystem
import Raster

/// Writes the current frame as a PNG file for the `screenshot` command, atomically
/// (`AtomicFile`: a reader never sees half a file, and a failure leaves no debris and no
/// truncated target). A failure is a `FileWriteError`: the path asked for and the `errno` text.
public enum ScreenshotWriter {
    /// Encodes `canvas` with `PNGEncoder` and writes it to `path` atomically.
    public static func write(_ canvas: Canvas, to path: String) throws {
        try write(bytes: PNGEncoder.encode(canvas), to: path)
    }

    /// Writes `bytes` to `path` atomically (see above).
    public static func write(bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}
