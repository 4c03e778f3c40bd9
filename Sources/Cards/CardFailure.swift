#if canImport(Glibc)
import Glibc
#endif
import Video

/// Why a card could not show its content: the file (or item) at fault and the reason, in words a
/// kiosk builder can act on. A failed card shows the "!" face (a missing file: its title only); the pipeline logs this once.
public struct CardFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The image path, or `item 'ID'` when the fault is not a file (a missing font).
    public var file: String
    /// The errno a read of the file failed with, kept as a number until printed (`reason`); nil
    /// when the reason is not a failed call's (a damaged image, a missing font).
    public var errno: Int32?
    /// The reason in words when there is no `errno` and no `video` error.
    private var words: String
    /// The error a clip failed with (its poster frame could not be decoded), kept whole — its
    /// file, kind and errno — until printed (`reason`).
    public private(set) var video: VideoError?
    /// The file is not on disk (deleted, or a folder of its path is gone): the card shows its
    /// title on the loading face (`CardFaceRenderer.missingFace`), not the "!" face, which is for
    /// files that are there but cannot be shown.
    public var missing: Bool

    public init(file: String, reason: String, missing: Bool = false) {
        self.file = file
        self.errno = nil
        self.words = reason
        self.missing = missing
    }

    /// A file that could not be read: `missing` when it or a folder of its path is not there.
    public init(file: String, errno: Int32) {
        self.file = file
        self.errno = errno
        self.words = ""
        self.missing = errno == ENOENT || errno == ENOTDIR
    }

    /// A clip that could not be shown: the file is the clip's, and `errno` the one its read
    /// failed with, if any. Whether the clip is missing is decided by looking at the disk
    /// (`CardFaceRenderer.renderFace`).
    public init(video error: VideoError) {
        self.file = error.path
        self.errno = error.errno
        self.words = ""
        self.video = error
        self.missing = false
    }

    /// What is wrong, in words (`file not found`, `cannot read: Input/output error`; for a clip,
    /// `VideoError.reason`).
    public var reason: String { video?.reason ?? errno.map(ImageFile.describe(errno:)) ?? words }

    public var description: String { "\(file): \(reason)" }
}
