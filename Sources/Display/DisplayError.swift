import LinuxSystem

/// A display error with the fix in its message.
///
/// The error behind it (a failed system call's `SystemCallError`, with its errno) is kept as it
/// is, never pasted into the words: `description` puts it in its place only when printed.
public struct DisplayError: Error, CustomStringConvertible {
    /// What went wrong, for callers that react differently (fall back to another backend).
    public enum Kind: Sendable {
        /// No device node of the backend's kind.
        case noDevice
        /// The device exists but may not be opened.
        case permissionDenied
        /// Another program owns the display (DRM master).
        case busy
        /// No screen connected, or the named connector is missing.
        case noConnector
        /// The configured mode is not offered.
        case unavailableMode
        /// The device cannot be used this way (format, no dumb buffers, no KMS).
        case unsupported
        /// Anything else.
        case failed
    }
    public var kind: Kind
    /// The message, or what failed when an underlying error follows.
    private var words: String
    /// The error behind this one (a `SystemCallError`, another `DisplayError`), or nil.
    public private(set) var underlying: (any Error)?
    /// True: `WORDS (UNDERLYING)`; false: `WORDS: UNDERLYING`.
    private var parenthesized = false
    /// What to do about it, after the underlying error: `…: ADVICE`.
    private var advice: String?
    /// A failure that came before this one and led to it (DRM's, when the framebuffer was tried
    /// next), printed first: `FIRST; WORDS…`.
    public private(set) var firstFailure: (any Error)?

    public init(_ description: String) { self.init(.failed, description) }
    public init(_ kind: Kind, _ description: String) { self.kind = kind; self.words = description }
    /// `words` failed because of `underlying`: `WORDS: UNDERLYING`, or with `parenthesized`
    /// `WORDS (UNDERLYING)`; then `: ADVICE` when given. `after`: a failure that came first and
    /// led to this attempt, printed before it (`AFTER; WORDS…`).
    public init(_ kind: Kind, _ words: String, underlying: any Error, parenthesized: Bool = false, advice: String? = nil,
                after firstFailure: (any Error)? = nil) {
        self.kind = kind; self.words = words
        self.underlying = underlying; self.firstFailure = firstFailure
        self.parenthesized = parenthesized; self.advice = advice
    }

    /// The errno of the failed call behind this error (kept as a number until printed); nil when
    /// none is behind it.
    public var errno: Int32? {
        if let e = underlying as? SystemCallError { return e.errno }
        return (underlying as? DisplayError)?.errno
    }

    /// The message: the words, the underlying error in its place, the advice.
    public var description: String {
        var text = firstFailure.map { "\($0); " } ?? ""
        text += words
        if let underlying { text += parenthesized ? " (\(underlying))" : ": \(underlying)" }
        if let advice { text += ": \(advice)" }
        return text
    }
}
