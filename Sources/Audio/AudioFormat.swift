/// The one format the kiosk's sound output mixes and plays: 48 kHz, stereo, signed 16-bit
/// little-endian, interleaved (what every ALSA device takes, through `plug` if need be). Clips'
/// soundtracks are converted to it as they are decoded, speech when it is handed over.
public enum AudioFormat {
    public static let sampleRate = 48_000
    public static let channels = 2
    /// Bytes of one frame (a sample of each channel).
    public static let bytesPerFrame = channels * 2
}
