import Audio

/// A clip synthesized for the request `id` (`SpeechEngine.request`), and how long it took.
public struct SpeechResult: Equatable, Sendable {
    public var id: Int
    public var utterance: Utterance
    public var clip: PCMClip
    /// Seconds of synthesis (the monotonic clock's, on the thread that synthesized).
    public var seconds: Double
    public init(id: Int, utterance: Utterance, clip: PCMClip, seconds: Double) {
        self.id = id; self.utterance = utterance; self.clip = clip; self.seconds = seconds
    }
}

/// How the kiosk gets PCM for its text: on a thread of its own that wakes the loop
/// (`SpeechWorker`, the running kiosk), or at once on the caller's thread (`ImmediateSpeech`:
/// `simulate` and tests, on their virtual clock).
public protocol SpeechEngine: AnyObject {
    /// A descriptor that becomes readable when results are ready (watch it in the loop); nil:
    /// results are ready when `request` returns.
    var readyDescriptor: Int32? { get }
    /// Synthesizes `utterance` as request `id` (ids grow); an older request not yet done is dropped.
    func request(_ utterance: Utterance, id: Int)
    /// Drops every request not yet done (speech stopped).
    func cancel()
    /// The results ready since the last call, oldest first.
    func takeResults() -> [SpeechResult]
    /// Lets go of the thread, if any (the kiosk stops).
    func stop()
}
