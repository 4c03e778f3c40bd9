import Foundation
import Glibc

/// A program the updater runs (`curl`, `rauc`, `openssl`, `tar`, `systemctl`) and waits for:
/// no shell, its output read whole (both pipes drained at once, so a chatty child cannot block).
struct ChildProcess {
    /// The program's exit status (128 + N when a signal N ended it), stdout and stderr.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
        /// Why `stopWhen` ended it; nil when it ended by itself.
        var stopped: String?
        /// stdout and stderr, trimmed, joined: what a message quotes.
        var said: String {
            [output, errors].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    /// Runs `argv` (its first element a path, or a name looked up in PATH) and waits. `stopWhen`
    /// is asked five times a second while it runs: a reason ends the child (SIGKILL: a child
    /// started by a process that blocks SIGTERM for a signalfd inherits the block).
    static func run(_ argv: [String], environment: [String: String]? = nil, stopWhen: (() -> String?)? = nil) throws -> Result {
        let process = Process()
        let program = argv[0].contains("/") ? argv[0] : try ProcessSpawner.resolve(argv[0], path: ProcessInfo.processInfo.environment["PATH"])
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(argv.dropFirst())
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errors = LockedData(), output = LockedData()
        Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }.start()
        Thread { output.set(out.fileHandleForReading.readDataToEndOfFile()) }.start()
        var stopped: String?
        while process.isRunning {
            if stopped == nil, let reason = stopWhen?() {
                stopped = reason
                kill(process.processIdentifier, SIGKILL)
            }
            usleep(stopWhen == nil ? 10_000 : 200_000)
        }
        process.waitUntilExit()
        while !errors.isSet || !output.isSet { usleep(1000) }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, output: String(decoding: output.data, as: UTF8.self), errors: String(decoding: errors.data, as: UTF8.self),
                      stopped: stopped)
    }
}

/// Data handed from the reader thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Data?
    func set(_ d: Data) { lock.lock(); value = d; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value != nil }
    var data: Data { lock.lock(); defer { lock.unlock() }; return value ?? Data() }
}
