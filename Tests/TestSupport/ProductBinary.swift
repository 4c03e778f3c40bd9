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
        let errorReader = Thread {
            errors.data = err.fileHandleForReading.readDataToEndOfFile()
            errors.done.signal()
        }
        errorReader.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        errors.done.wait()
        return Result(status: p.terminationStatus, output: String(decoding: data, as: UTF8.self),
                      errors: String(decoding: errors.data, as: UTF8.self))
    }

    /// The error stream's bytes, read on their own thread; `done` is signalled at its end.
    private final class ErrorStream: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}
