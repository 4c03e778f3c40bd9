/// A sound that plays against the session's clock (a video clip's soundtrack): asked for the
/// frames heard from a given session time on, it gives the ones that belong there. The clock is
/// the master; the source follows it (`Video.Soundtrack`: drops or pads its decoded sound when it
/// is more than a few milliseconds off).
public protocol SoundSource: AnyObject {
    /// Writes `frames` frames (`AudioFormat`, as floats in −1…1, interleaved) heard from session
    /// time `time` on into `buffer`, which holds `frames × AudioFormat.channels` zeros; writes
    /// nothing for silence. Called on the output's thread (ALSA) or the simulator's.
    func render(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int, at time: Double)
}
