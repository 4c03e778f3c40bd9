import LinuxSystem

/// Why a video file cannot be shown (or stopped being shown): the file, what kind of fault, and a
/// reason in words a kiosk builder can act on. `description` is `PATH: reason`.
public struct VideoError: Error, CustomStringConvertible, Equatable, Hashable {
    public enum Kind: Sendable {
        /// The file cannot be opened or read (missing, no permission, a directory, an I/O error).
        case unreadable
        /// FFmpeg does not recognise the bytes as a video container (text, an image, garbage).
        case unknownContainer
        /// A container without a video stream (audio only, or only a cover picture).
        case noVideoStream
        /// A clip asked to play its sound (`audio = true`) has no audio stream.
        case noAudioStream
        /// The codec is known but this machine's libavcodec has no decoder for it (or FFmpeg's
        /// libraries are not installed: `FFmpegLibraries`).
        case noDecoder
        /// The picture is bigger than `VideoLimits` allow; refused before any frame is allocated.
        case tooLarge
        /// The container or the stream is damaged or truncated past what can be skipped.
        case corrupt
        /// The file is empty or no frame in it decodes.
        case empty
    }

    public let path: String
    public let kind: Kind
    /// The errno of the call on the file that failed, kept as a number until printed (`reason`);
    /// nil when FFmpeg or the file's content is at fault.
    public let errno: Int32?
    /// The `AVERROR` code the FFmpeg call that failed returned, kept as a number until printed
    /// (`reason`); nil when no FFmpeg call's result is the cause.
    public let ffmpegCode: Int32?
    /// The reason in words; with an `errno` or an `ffmpegCode`, what could not be done
    /// (`cannot read the file`).
    private let words: String
    /// With an `ffmpegCode`: words after FFmpeg's message (`; it may be truncated`).
    private let then: String

    public init(path: String, kind: Kind, reason: String) {
        self.init(path: path, kind: kind, words: reason, errno: nil, ffmpegCode: nil, then: "")
    }

    /// `what` could not be done to the file at `path` (`cannot open the file`): the call failed with `errno`.
    public init(path: String, kind: Kind, cannot what: String, errno: Int32) {
        self.init(path: path, kind: kind, words: what, errno: errno, ffmpegCode: nil, then: "")
    }

    /// `what` went wrong with the file at `path` (`cannot seek back to the start of the clip`):
    /// an FFmpeg call returned `ffmpegCode`; `then` follows FFmpeg's message in `reason`.
    public init(path: String, kind: Kind, failed what: String, ffmpegCode: Int32, then: String = "") {
        self.init(path: path, kind: kind, words: what, errno: nil, ffmpegCode: ffmpegCode, then: then)
    }

    private init(path: String, kind: Kind, words: String, errno: Int32?, ffmpegCode: Int32?, then: String) {
        self.path = path; self.kind = kind
        self.errno = errno; self.ffmpegCode = ffmpegCode
        self.words = words; self.then = then
    }

    /// What is wrong, in words; with an errno, `WHAT (strerror)`: `cannot read the file
    /// (Input/output error)`; with an FFmpeg code, `WHAT (FFmpeg's message)THEN`.
    public var reason: String {
        if let errno { return "\(words) (\(SystemCallError.message(for: errno)))" }
        if let ffmpegCode { return "\(words) (\(ffmpegErrorText(ffmpegCode)))\(then)" }
        return words
    }

    public var description: String { "\(path): \(reason)" }
}
