@testable import Audio
import Foundation
import LinuxSystem
import XCTest

final class WAVRecorderTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "wav-recorder-\(getpid())-\(name.hashValue)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// The file is a 48 kHz stereo 16-bit WAV whose data holds exactly the frames before the
    /// last time advanced to, in order.
    func testHeaderAndLength() throws {
        let mixer = AudioMixer(volume: 1)
        mixer.playSoundtrack(ConstantSource(level: 0.25))
        let path = folder + "/a.wav"
        let recorder = try WAVRecorder(path: path, mixer: mixer)
        try recorder.advance(to: 0.1)
        try recorder.advance(to: 0.1)
        try recorder.advance(to: 0.25)
        try recorder.finish()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: bytes[8..<16], as: UTF8.self), "WAVEfmt ")
        XCTAssertEqual([u16(20), u16(22), u32(24), u16(34)], [1, 2, 48_000, 16])
        XCTAssertEqual(u32(40), 12_000 * 4, "0.25 s of frames")
        XCTAssertEqual(bytes.count, 44 + 12_000 * 4)
        XCTAssertEqual(u32(4), bytes.count - 8)
        XCTAssertEqual(u16(44), 8192)
    }

    /// A file that cannot be created: the path and the reason.
    func testUncreatableFileNamesThePath() {
        XCTAssertThrowsError(try WAVRecorder(path: folder + "/missing/a.wav", mixer: AudioMixer())) { error in
            XCTAssertEqual("\(error)", "\(folder)/missing/a.wav: cannot create the file (No such file or directory)")
        }
    }
}
