import CFFmpeg
import CFFmpegLoader
import LinuxSystem

/// FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale, libswresample), opened
/// when the first video or its sound needs them, not when the program starts: with them come
/// about a hundred more libraries (every codec Debian builds FFmpeg with), which a carousel
/// without video would load and relocate at every start (docs/video.md, "FFmpeg loaded on
/// demand"; docs/start-up.md). `CFFmpegLoader` defines the FFmpeg functions this module calls;
/// each jumps into the library's own.
public enum FFmpegLibraries {
    /// Why the libraries could not be opened: the loader's words (a library not installed, or one
    /// without a function this program calls).
    public struct Missing: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String {
            "FFmpeg's libraries (\(FFmpegLibraries.sonames)) could not be loaded: \(reason)"
        }
    }

    /// Opens them and finds their functions, once; later calls give the first answer. FFmpeg's
    /// own log is silenced then (every failure that matters reaches the caller as a `VideoError`
    /// naming the file; a damaged clip would otherwise print a line per packet).
    public static func load() throws(Missing) {
        if let words = LibraryLoad.failure(kc_ffmpeg_load) { throw Missing(reason: words) }
        _ = logSilenced
    }

    /// The libraries' sonames as this program was built for them, `libavutil.so.57 …`.
    public static var sonames: String { String(cString: kc_ffmpeg_sonames()) }

    private static let logSilenced: Void = { kc_quiet_ffmpeg_log() }()
}
