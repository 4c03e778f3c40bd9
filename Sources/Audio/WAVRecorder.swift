import Glibc
import LinuxSystem

/// The sound output of `simulate --audio-out FILE.wav`: the mixer pulled on the virtual clock
/// and written to a WAV file (`AudioFormat`: 48 kHz, stereo, 16-bit). Frame n is what the kiosk
/// would play at virtual time n / 48000; `advance(to:)` writes every frame before that time. The
/// same run gives the same bytes (the mix depends only on the calls made, never on the machine's
/// clock).
public final class WAVRecorder {
    public let path: String
    private let mixer: AudioMixer
    private let fd: Int32
    /// Frames written so far.
    public private(set) var frames = 0
    private var buffer: [Int16] = []
    private var finished = false

    /// Creates (or truncates) `path` and writes the WAV header; throws `FileWriteError`.
    public init(path: String, mixer: AudioMixer) throws {
        self.path = path
        self.mixer = mixer
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileWriteError(path: path, step: .create) }
        try write(Self.header(dataBytes: 0))
    }

    deinit { Glibc.close(fd) }

    /// Frame number of virtual time `time`: the frames before it have been heard by then.
    public static func frame(at time: Double) -> Int {
        Int((time * Double(AudioFormat.sampleRate) + 1e-6).rounded(.down))
    }

    /// Mixes and writes the frames heard before virtual time `time`.
    public func advance(to time: Double) throws {
        let end = Self.frame(at: time)
        while frames < end {
            let count = min(end - frames, 4800)
            let samples = count * AudioFormat.channels
            if buffer.count != samples { buffer = [Int16](repeating: 0, count: samples) }
            buffer.withUnsafeMutableBufferPointer {
                mixer.mix(frames: count, at: Double(frames) / Double(AudioFormat.sampleRate), into: $0)
            }
            try buffer.withUnsafeBytes { try write(Array($0)) }
            frames += count
        }
    }

    /// Writes the header's sizes; the file is complete.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        let header = Self.header(dataBytes: frames * AudioFormat.bytesPerFrame)
        let written = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == header.count else { throw FileWriteError(path: path, step: .write) }
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(path: path, step: .write)
            }
            offset += n
        }
    }

    /// The 44-byte header of a PCM WAV file of `dataBytes` bytes in `AudioFormat`.
    static func header(dataBytes: Int) -> [UInt8] {
        var h: [UInt8] = []
        func u32(_ v: Int) { h += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)] }
        func u16(_ v: Int) { h += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        h += Array("RIFF".utf8); u32(36 + dataBytes); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(16); u16(1); u16(AudioFormat.channels); u32(AudioFormat.sampleRate)
        u32(AudioFormat.sampleRate * AudioFormat.bytesPerFrame); u16(AudioFormat.bytesPerFrame); u16(16)
        h += Array("data".utf8); u32(dataBytes)
        return h
    }
}
