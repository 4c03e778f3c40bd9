import Foundation

/// The `kiosk-carousel` binary that `swift build --build-tests` puts next to the test bundle, run
/// as a person runs it (the tests of `check-config`, `--version`, `simulate --wall-clock`).
public enum ProductBinary {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// What a run printed and how it ended.
    public struct Result {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// The product's path (for a script a test runs, `KIOSK_BIN=`); throws `Missing` when it is not built.
    public static func path() throws -> String {
        // The test bundle runs as an executable in the build folder, next to the product.
        let folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("kiosk-carousel").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Missing(description: "\(binary) is not built; run `swift build --build-tests` first")
        }
        return binary
    }

    /// Runs the product with `arguments`; its standard output and error are collected (the
    /// error stream on a thread of its own, so neither pipe can fill up and stall the program).
    /// `standardInput`: bytes the program reads from a pipe on its standard input (then its end).
    /// `environment`: variables set (or replaced) in the environment the program inherits.
    public static func run(_ arguments: [String], standardInput: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(arguments, standardInput: standardInput, environment: environment, until: nil)
    }

    /// Runs the product with `arguments` until its error stream holds `text` (or it ends by
    /// itself), then sends it SIGTERM and collects what it printed: for a run whose end the test
    /// cannot know in advance (what the loop logs after its first frame). `limit` only bounds a
    /// run that never prints `text` (it is then stopped the same way; the caller's assertion
    /// on `errors` names what was missing).
    public static func run(_ arguments: [String], untilErrorsContain text: String, limit: Double = 60) throws -> Result {
        try run(arguments, standardInput: nil, environment: [:], until: (text, limit))
    }

    /// Both: `until` nil waits for the program's own end.
    private static func run(_ arguments: [String], standardInput: Data?, environment: [String: String],
                            until: (text: String, limit: Double)?) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try path())
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = standardInput.map { _ in Pipe() }
        if let input { p.standardInput = input }
        try p.run()
        if let input, let standardInput {
            // On a thread of its own: a program that reads slowly cannot stall this one.
            Thread {
                input.fileHandleForWriting.write(standardInput)
                try? input.fileHandleForWriting.close()
            }.start()
        }
        let errors = ErrorStream()
        let seen = DispatchSemaphore(value: 0)
        let errorReader = Thread {
            var signalled = false
            while true {
                let chunk = err.fileHandleForReading.availableData
                errors.lock.lock()
                errors.data.append(chunk)
                let found = until.map { String(decoding: errors.data, as: UTF8.self).contains($0.text) } ?? false
                errors.lock.unlock()
                if (found || chunk.isEmpty) && !signalled { signalled = true; seen.signal() }
                if chunk.isEmpty { break }
            }
            errors.done.signal()
        }
        errorReader.start()
        if let until {
            _ = seen.wait(timeout: .now() + until.limit)
            if p.isRunning { p.terminate() }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        errors.done.wait()
        return Result(status: p.terminationStatus, output: String(decoding: data, as: UTF8.self),
                      errors: String(decoding: errors.data, as: UTF8.self))
    }

    /// The shared libraries the product names (readelf's `NEEDED` entries, `libpango-1.0.so.0`
    /// …): what the dynamic loader opens before `main`, as opposed to the libraries it opens on
    /// demand (docs/start-up.md, "Libraries opened on demand").
    public static func neededLibraries() throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        p.arguments = ["-d", try path()]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        // `0x…01 (NEEDED)  Shared library: [libc.so.6]`
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// The error stream's bytes, read on their own thread; `done` is signalled at its end.
    private final class ErrorStream: @unchecked Sendable {
        /// Held while `data` grows and is read (`run(_:untilErrorsContain:limit:)`).
        let lock = NSLock()
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
