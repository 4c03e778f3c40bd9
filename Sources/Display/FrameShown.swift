/// A presented frame that reached the screen, as its backend learned it: what input-to-photon
/// latency is measured against (the newest input a frame reflects, minus `time`).
///
/// Backends report one per frame through `DisplayBackend.onFrameShown`, on the loop's thread:
/// DRM when the page flip's completion event is read (or, for a mode set, when the call
/// returned), fbdev and headless as soon as `present` has written the frame.
public struct FrameShown: Equatable, Sendable {
    /// Where `time` comes from.
    public enum Timing: Equatable, Sendable {
        /// The kernel's vblank timestamp of the page flip (`page_flip_handler2`'s tv_sec/tv_usec).
        case vblank
        /// When the call that put the frame on screen returned (a mode set, an fbdev pan or
        /// write, headless): there is no vblank timestamp.
        case submitted
        /// The flip's completion event never came; the time the backend gave up waiting.
        case timedOut
    }

    /// `DisplayBackend.frameSequence` as it was right after the `present` of this frame.
    public var sequence: UInt64
    /// When the frame was shown, `CLOCK_MONOTONIC` seconds (the loop's clock).
    public var time: Double
    /// How `time` was obtained.
    public var timing: Timing
    /// The DRM CRTC that showed it (from the event); 0 for other backends.
    public var crtcID: UInt32
    /// The driver's vblank counter at the flip (the event's `sequence`); 0 where there is none.
    public var driverSequence: UInt32

    public init(sequence: UInt64, time: Double, timing: Timing, crtcID: UInt32 = 0, driverSequence: UInt32 = 0) {
        self.sequence = sequence
        self.time = time
        self.timing = timing
        self.crtcID = crtcID
        self.driverSequence = driverSequence
    }
}
