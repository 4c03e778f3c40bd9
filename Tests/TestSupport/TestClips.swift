import Foundation

/// Video clips for tests, made on the spot by Debian's `ffmpeg` command from its built-in lavfi
/// sources (`testsrc2`, `color`, …), never committed. A clip is made once per test run into one
/// temporary folder, under its name (the name says what the clip is: callers give each recipe
/// its own name).
public enum TestClips {
    /// `ffmpeg` is missing or failed; the description says what to do.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The run's clip folder.
    public static let folder: String = {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("kiosk-test-clips-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    private static let lock = NSLock()

    /// The `ffmpeg` program, or a failure that says how to get it.
    public static func ffmpeg() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"] {
            let candidate = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "the ffmpeg command is missing: run scripts/install-deps.sh (it installs ffmpeg, one of debian/control's Build-Depends)")
    }

    /// Runs `ffmpeg ARGUMENTS FOLDER/NAME` once (the extension of `name` picks the container
    /// unless the arguments say otherwise); returns the path.
    public static func make(_ name: String, _ arguments: [String]) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        let path = "\(folder)/\(name)"
        if FileManager.default.fileExists(atPath: path) { return path }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ffmpeg())
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
        return path
    }

    /// H.264 encoder arguments for small, fast test clips.
    public static let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]

    /// A moving test pattern (`testsrc2`: every frame differs), H.264 in MP4, `size` at `rate`
    /// frames per second for `seconds`.
    public static func moving(size: String = "160x120", rate: Int = 10, seconds: Int = 3) throws -> String {
        try make("testsrc2-\(size)-\(rate)fps-\(seconds)s.mp4",
                 ["-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate):d=\(seconds)"] + x264)
    }

    /// `moving`'s pattern with a sine tone as its sound (AAC, 44.1 kHz mono, the whole clip):
    /// a video item's soundtrack for the sound tests.
    public static func withTone(size: String = "160x120", rate: Int = 10, seconds: Int = 3, frequency: Int = 440) throws -> String {
        try make("testsrc2-\(size)-\(rate)fps-\(seconds)s-sine\(frequency).mp4",
                 ["-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate):d=\(seconds)",
                  "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=44100:duration=\(seconds)"]
                 + x264 + ["-c:a", "aac", "-b:a", "64k", "-shortest"])
    }
}
