import Foundation
import KioskConfig
import LinuxSystem

/// What `usb-import` is doing or did, in `[usb] content/status.json`: written by the import
/// (as root) with a rename, read by the running kiosk when the file changes. The kiosk shows a
/// card for it: "reading the stick", then "new content" or the problems.
public struct ImportStatus: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable {
        /// The stick is mounted and its folder is being checked (on a FAT stick read without a
        /// mount: listed, and later its staged copy checked).
        case checking
        /// A FAT stick's folder is being read off by mtools into a staging folder, before its
        /// check (`bytes`: read so far; docs/usb.md, "Reading FAT without a kernel mount").
        case reading
        /// Checked; the folder is being copied.
        case copying
        /// Copied and made current: the kiosk reloads.
        case done
        /// Not used (its problems say why); the content is what it was.
        case failed
    }
    public var state: State
    /// Unix time of this status.
    public var time: Double
    /// The device the stick was read from, e.g. `/dev/sda1` (or the folder given to `--folder`).
    public var device: String
    /// One sentence for the card's title line.
    public var message: String
    /// `FILE:LINE:COLUMN: message` lines, file names as on the stick (`kiosk-carousel/config.toml`).
    public var problems: [String]
    /// Items of the new content (done).
    public var items: Int?
    /// Bytes read off the stick so far (reading), copied so far (copying) or in all (done).
    public var bytes: Int64?

    public init(state: State, time: Double, device: String, message: String, problems: [String] = [],
                items: Int? = nil, bytes: Int64? = nil) {
        self.state = state; self.time = time; self.device = device; self.message = message
        self.problems = problems; self.items = items; self.bytes = bytes
    }

    /// The status file of a content folder.
    public static func path(in content: String) -> String {
        (content as NSString).appendingPathComponent(ImportedContent.statusName)
    }

    /// Reads the status; nil when there is none or it cannot be read (a kiosk never fails on it).
    public static func read(from path: String) -> ImportStatus? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        return try? JSONDecoder().decode(ImportStatus.self, from: data)
    }

    /// Writes the status with a rename (readers see the old or the new one, whole), mode 0644.
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try AtomicFile.write([UInt8](data), to: path)
    }
}
