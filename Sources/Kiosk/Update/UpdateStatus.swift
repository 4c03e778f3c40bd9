import Foundation
import LinuxSystem

/// What the updater is doing or did, in `update/status.json` (docs/updates.md): written by
/// `kiosk-carousel update` (as root) with a rename at every step, watched by the running kiosk,
/// which shows a card for it and puts the last result in `state` and the metrics.
public struct UpdateStatus: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Asking the server whether there is something new.
        case checking
        /// Fetching the bundle (`bytes` of `total` so far).
        case downloading
        /// RAUC is checking and writing it into the other slot.
        case installing
        /// Written; the kiosk restarts into it when nobody is using it.
        case installed
        /// Not installed: `message` says why (a refusal in words, or the download's problem).
        case failed
    }
    public var state: State
    /// Unix time of this status.
    public var time: Double
    /// Where the bundle came from: a URL, a file, or a USB stick's device.
    public var source: String
    /// One sentence: what happens, or why it failed.
    public var message: String
    /// The bundle's version, when known.
    public var version: String?
    /// The version running while this was written.
    public var running: String?
    /// Bytes downloaded so far and the whole size (downloading), when known.
    public var bytes: Int64?
    public var total: Int64?

    public init(state: State, time: Double, source: String, message: String, version: String? = nil,
                running: String? = nil, bytes: Int64? = nil, total: Int64? = nil) {
        self.state = state; self.time = time; self.source = source; self.message = message
        self.version = version; self.running = running; self.bytes = bytes; self.total = total
    }

    /// Reads the status; throws with the file named when it is there but broken.
    public static func read(from path: String) throws -> UpdateStatus? {
        try StatusFile.read(UpdateStatus.self, from: path)
    }

    /// Writes the status with a rename (readers see the old or the new one, whole), mode 0644.
    public func write(to path: String) throws {
        try StatusFile.write(self, to: path)
    }
}

/// What the image writes after each boot, `update/boot.json` (docs/updates.md; the image side
/// writes it): the slot and version that booted, and whether the slot that should have booted
/// ran out of tries.
public struct BootReport: Codable, Equatable, Sendable {
    public var slot: String
    public var version: String
    public var rolledBack: Bool
    /// The slot that did not start, and its version (when rolled back).
    public var rolledBackFrom: String?
    public var failedVersion: String?

    enum CodingKeys: String, CodingKey {
        case slot, version
        case rolledBack = "rolled_back"
        case rolledBackFrom = "rolled_back_from"
        case failedVersion = "failed_version"
    }

    public init(slot: String, version: String, rolledBack: Bool, rolledBackFrom: String? = nil, failedVersion: String? = nil) {
        self.slot = slot; self.version = version; self.rolledBack = rolledBack
        self.rolledBackFrom = rolledBackFrom; self.failedVersion = failedVersion
    }

    /// Reads the report; throws with the file named when it is there but broken.
    public static func read(from path: String) throws -> BootReport? {
        try StatusFile.read(BootReport.self, from: path)
    }
}

/// A small JSON file of the updater: read whole (at most 1 MiB), written atomically.
public enum StatusFile {
    /// A file that is there but cannot be used: `FILE: why`.
    public struct Broken: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// nil when the file does not exist.
    public static func read<T: Decodable>(_ type: T.Type, from path: String) throws -> T? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw Broken(path: path, reason: "cannot be read") }
        guard data.count < 1 << 20 else { throw Broken(path: path, reason: "\(data.count) bytes, more than a status file holds") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw Broken(path: path, reason: "not JSON (\(context.debugDescription))")
        } catch let DecodingError.keyNotFound(key, _) {
            throw Broken(path: path, reason: "no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Broken(path: path, reason: "\"\(at)\" has the wrong type")
        } catch {
            throw Broken(path: path, reason: "\(error)")
        }
    }

    public static func write<T: Encodable>(_ value: T, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        try AtomicFile.write([UInt8](data), to: path)
    }
}
