import Foundation

/// A folder of its own under the temporary directory for one test, removed with `remove()`
/// (call it in `tearDown`).
public final class ScratchFolder {
    /// The folder's path.
    public let path: String

    /// Makes `<tmp>/<prefix>-<UUID>`.
    public init(_ prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the folder; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// An empty file named `soname` in this folder's `lib/`, and the environment that makes the
    /// dynamic loader find it first (`LD_LIBRARY_PATH`): a library that is there but cannot be
    /// loaded, for the tests of the libraries the program opens on demand.
    public func emptyLibrary(_ soname: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: path + "/lib", withIntermediateDirectories: true)
        _ = try write("lib/" + soname, "")
        return ["LD_LIBRARY_PATH": path + "/lib"]
    }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
