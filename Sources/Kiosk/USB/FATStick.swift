import Foundation
import Glibc
import KioskConfig
import LinuxSystem

/// A FAT stick read without a kernel mount (docs/usb.md, "Reading FAT without a kernel mount"):
/// mtools lists and copies its `kiosk-carousel/` folder in a `StickSandbox`, so a crafted file
/// system reaches an unprivileged process that can read the one device and write one folder,
/// not the kernel. The device node and the staging folder are given to the sandbox's group for
/// the time of the read, and the node is given back.
public struct FATStick {
    /// What `mdir` says of the folder, before anything is copied.
    public struct Summary: Equatable, Sendable {
        /// Files (not folders) in the folder and below it.
        public var files: Int
        /// Their bytes.
        public var bytes: Int64
        /// The folder has a `config.toml` (else it can hold only an update bundle).
        public var hasConfig = false
        /// Names of one folder that differ only in case (`kiosk-carousel/pictures/A.PNG: …`):
        /// the kernel's vfat driver reads the first of them, mcopy would keep the last, so which
        /// file the stick means is not clear and it is refused.
        public var caseCollisions: [String] = []
    }

    /// What is on the stick for the kiosk: its `kiosk-carousel/` folder, and the update bundles
    /// (`*.raucb`) at its top (docs/updates.md).
    public struct Contents: Equatable, Sendable {
        /// The folder; nil when the stick has none.
        public var folder: Summary?
        /// The bundles at the top; nil when there are none.
        public var bundles: Summary?
        /// Everything that is copied off the stick.
        public var bytes: Int64 { (folder?.bytes ?? 0) + (bundles?.bytes ?? 0) }
    }

    /// Why the stick could not be read: the program, its exit status and what it said.
    public struct ReadFailure: Error, CustomStringConvertible {
        public var device: String
        public var what: String
        public var status: Int32
        public var said: String
        public var description: String {
            "\(device): \(what) (exit status \(status))\(said.isEmpty ? "" : ": " + StickListing.printable(said))"
        }
    }

    /// The device, e.g. `/dev/sda1`.
    public let device: String
    public var sandbox = StickSandbox()
    /// The listing's time limit; the copy's (well under the unit's 30 minutes, so the import can
    /// still remove the copy and say so).
    public var listSeconds = 120, copySeconds = 25 * 60

    public init(device: String) { self.device = device }

    /// mdir's recursive listing of `kiosk-carousel/` and its listing of the bundles at the top:
    /// nil when the stick has neither.
    public func contents() throws(ReadFailure) -> Contents? {
        let folder = try listed(["-/", "-a", "-i", device, "::/" + ImportedContent.stickFolder], what: "listing the stick's folder with mdir")
        let bundles = try listed(["-a", "-i", device, Self.bundlesAtTop], what: "listing the stick's update bundles with mdir")
            .flatMap { $0.files > 0 ? $0 : nil }
        if folder == nil, bundles == nil { return nil }
        return Contents(folder: folder, bundles: bundles)
    }

    /// The bundles at the stick's top, as mtools matches them (case does not matter on FAT).
    static let bundlesAtTop = "::/*." + StickBundle.fileExtension

    /// One mdir listing summed; nil when what it lists is not there.
    private func listed(_ arguments: [String], what: String) throws(ReadFailure) -> Summary? {
        let r = try run("mdir", arguments, writable: nil, seconds: listSeconds, what: what)
        if r.status != 0 {
            if r.errors.contains("not found") { return nil }
            throw ReadFailure(device: device, what: what, status: r.status, said: r.said)
        }
        guard let summary = Self.parse(mdir: r.output) else {
            throw ReadFailure(device: device, what: what + ": no summary line", status: r.status, said: r.said)
        }
        return summary
    }

    /// Copies `kiosk-carousel/` and the bundles at the top (what `contents` found) into
    /// `staging` (made here, the sandbox's group may write it): `staging/kiosk-carousel/…`,
    /// `staging/NAME.raucb`. `progress` gets the bytes under `staging` while mcopy runs, about
    /// once a second (less often when summing them takes long: 100,000 small files).
    public func copy(_ contents: Contents, into staging: String, progress: ((Int64) -> Void)? = nil) throws {
        guard let gid = StickSandbox.groupID() else {
            throw ReadFailure(device: device, what: "no group \(StickSandbox.group) (the package makes it)", status: -1, said: "")
        }
        guard mkdir(staging, 0o770) == 0 else { throw SystemCallError(call: "mkdir", subject: staging) }
        guard chown(staging, 0, gid) == 0 else { throw SystemCallError(call: "chown", subject: staging) }
        guard chmod(staging, 0o770) == 0 else { throw SystemCallError(call: "chmod", subject: staging) }
        var sources: [(String, [String])] = []
        if contents.folder != nil { sources.append(("copying the stick's folder with mcopy", ["-s", "::/" + ImportedContent.stickFolder])) }
        if contents.bundles != nil { sources.append(("copying the stick's update bundles with mcopy", [Self.bundlesAtTop])) }
        var nextLook = MonotonicClock.now() + 1
        func look() {
            guard let progress, MonotonicClock.now() >= nextLook else { return }
            let t0 = MonotonicClock.now()
            let bytes = Self.bytes(under: staging)
            let t1 = MonotonicClock.now()
            nextLook = t1 + max(1, 10 * (t1 - t0))
            progress(bytes)
        }
        for (what, source) in sources {
            // -n: no question on a name that is there, -Q: stop at the first file that fails, -m: keep times.
            let r = try run("mcopy", ["-n", "-Q", "-m", "-i", device] + source + [staging + "/"],
                            writable: staging, seconds: copySeconds, what: what, whileRunning: look)
            guard r.status == 0 else { throw ReadFailure(device: device, what: what, status: r.status, said: r.said) }
        }
    }

    /// Runs an mtools program in the sandbox, the device readable by the sandbox's group meanwhile.
    private func run(_ name: String, _ arguments: [String], writable: String?, seconds: Int, what: String,
                     whileRunning: (() -> Void)? = nil) throws(ReadFailure) -> ChildProcess.Result {
        func failure(_ said: String) -> ReadFailure { ReadFailure(device: device, what: what, status: -1, said: said) }
        guard let gid = StickSandbox.groupID() else { throw failure("no group \(StickSandbox.group) (the package makes it)") }
        let program: String
        do {
            program = try ProcessSpawner.resolve(name, path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        } catch {
            throw failure("\(name) not found (package mtools): \(error)")
        }
        var st = stat()
        guard stat(device, &st) == 0 else { throw failure("\(SystemCallError(call: "stat", subject: device))") }
        guard chown(device, st.st_uid, gid) == 0 else { throw failure("\(SystemCallError(call: "chown", subject: device))") }
        guard chmod(device, 0o640) == 0 else {
            _ = chown(device, st.st_uid, st.st_gid)
            throw failure("\(SystemCallError(call: "chmod", subject: device))")
        }
        // Given back, also when the stick is gone (then the calls fail and nothing is left).
        defer { _ = chown(device, st.st_uid, st.st_gid); _ = chmod(device, st.st_mode & 0o7777) }
        let unit = "kiosk-carousel-stick-\((device as NSString).lastPathComponent)-\(getpid())-\(name)-\(UInt32.random(in: 0 ... .max)).service"
        do {
            return try sandbox.run(unit: unit, program: program, arguments: arguments, device: device, writable: writable,
                                   seconds: seconds, whileRunning: whileRunning)
        } catch {
            throw failure(error.description)
        }
    }

    /// The bytes of the regular files under `folder` (a staging folder mcopy is writing: a file
    /// half written counts with what it has); 0 when it cannot be listed.
    static func bytes(under folder: String) -> Int64 {
        var total: Int64 = 0
        func walk(_ dir: String) {
            guard let names = try? StickListing.names(in: dir).names else { return }
            for name in names {
                let path = (dir as NSString).appendingPathComponent(name)
                var st = stat()
                guard lstat(path, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFREG: total += Int64(st.st_size)
                case S_IFDIR: walk(path)
                default: break
                }
            }
        }
        walk(folder)
        return total
    }

    /// The files and bytes of `mdir -/ -a`'s listing: the entries that are not `<DIR>`, and the
    /// bytes of the "Total files listed:" line (or of the one folder's line). Nil when there is
    /// no such line.
    public static func parse(mdir output: String) -> Summary? {
        var files = 0, folders = 0, hasConfig = false
        var inFolder = false
        var folderBytes: [Int64] = []
        var total: Int64?
        var totalNext = false
        var folderPath = "", namesHere: [String: String] = [:], collisions: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Directory for ") {
                inFolder = true; folders += 1
                folderPath = String(text.dropFirst("Directory for ".count))
                if folderPath.hasPrefix("::/") { folderPath.removeFirst(3) }
                namesHere = [:]
                continue
            }
            if text == "Total files listed:" { totalNext = true; continue }
            if let bytes = summaryBytes(text) {
                if totalNext { total = bytes; totalNext = false } else { folderBytes.append(bytes) }
                inFolder = false
                continue
            }
            if inFolder, let name = entryName(text), name != ".", name != ".." {
                let key = name.lowercased()
                if let other = namesHere[key] {
                    collisions.append("\(folderPath)/\(name): the same name as \(other) but for case")
                } else {
                    namesHere[key] = name
                }
            }
            if inFolder, !text.isEmpty, !text.contains("<DIR>") {
                files += 1
                // The long name ends the line (the first folder listed is kiosk-carousel/ itself).
                if folders == 1, text.hasSuffix(" " + ImportedContent.configName) { hasConfig = true }
            }
        }
        if let total { return Summary(files: files, bytes: total, hasConfig: hasConfig, caseCollisions: collisions) }
        if folderBytes.count == 1 { return Summary(files: files, bytes: folderBytes[0], hasConfig: hasConfig, caseCollisions: collisions) }
        return nil
    }

    /// The name of one entry line of mdir's listing — `CONFIG~1 TOM   3 2026-11-29   9:19  config.toml`:
    /// the long name after the time when there is one, else the 8.3 name of the first twelve
    /// columns (`B        PNG` → `B.PNG`). Nil for a line that is not an entry.
    static func entryName(_ text: String) -> String? {
        guard let stamp = text.range(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2} +[0-9]{1,2}:[0-9]{2}"#, options: .regularExpression) else {
            return nil
        }
        let rest = text[stamp.upperBound...]
        if rest.count > 2, rest.hasPrefix("  ") { return String(rest.dropFirst(2)) }
        let base = text.prefix(8).trimmingCharacters(in: .whitespaces)
        let ext = text.dropFirst(9).prefix(3).trimmingCharacters(in: .whitespaces)
        guard !base.isEmpty else { return nil }
        return ext.isEmpty || ext.contains("<") ? base : base + "." + ext
    }

    /// `12 files   5 303 bytes` → 5303 (mdir groups digits with spaces).
    static func summaryBytes(_ text: String) -> Int64? {
        guard text.hasSuffix(" bytes"), let filesRange = text.range(of: " file") else { return nil }
        guard Int(text[..<filesRange.lowerBound]) != nil else { return nil }
        let afterFiles = text[filesRange.upperBound...].drop(while: { $0 == "s" })
        let digits = afterFiles.dropLast(" bytes".count).filter { $0 != " " }
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(digits)
    }
}
