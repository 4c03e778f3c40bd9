import Cards
import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging

/// Takes a USB stick's `kiosk-carousel/` folder into `[usb] content` (docs/usb.md):
///
/// 1. checks it where it is: the content file's rules (`ImportedContent.load`), the result over
///    the machine's config, every picture decoded and every clip opened, every file inside the
///    folder, the size against `max_mb` and the free space;
/// 2. copies it into `content/.incoming-PID` (every file fsync-ed), and loads the copy again;
/// 3. makes it current with two renames: the copy to `gen-…`, then a new `current` link over
///    the old one. Until that last rename the running kiosk sees the old content whole; after
///    it, the new one whole. A stick pulled out, a full disk or a power cut before it changes
///    nothing, and the half copy is removed (or, after a power cut, by the next import).
///
/// Each step is written to `content/status.json` (`ImportStatus`), which the kiosk shows.
public final class ContentImporter {
    let settings: USBSettings
    /// The machine's own configuration (not overlaid): what the stick's tables go over.
    let machine: KioskConfiguration
    let logger: Logger
    /// Unix time, for the status.
    let wallClock: () -> Double
    /// Called with each file's path on the stick just before it is copied (tests act out a
    /// stick pulled half-way by removing files here).
    var beforeCopying: ((String) -> Void)?
    /// A folder with more files is refused before anything is read: each file is copied and
    /// `fsync`-ed on its own, and 100,000 small ones (well under `max_mb`) kept a kiosk copying
    /// for tens of minutes. No carousel needs that many.
    var maxFiles = 10_000

    public init(machine: KioskConfiguration, logger: Logger, wallClock: @escaping () -> Double = WallClockTime.now) {
        self.settings = machine.usb
        self.machine = machine
        self.logger = logger
        self.wallClock = wallClock
    }

    /// Where the status goes.
    public var statusPath: String { ImportStatus.path(in: settings.content) }

    /// Imports the `kiosk-carousel/` folder of `root` (a stick's mount point); `device` names it
    /// in the status. Returns the final status, or nil when `root` has no such folder (a stick
    /// that is not for the kiosk: nothing is written, nothing shown).
    public func importStick(root given: String, device: String) -> ImportStatus? {
        // Absolute and without links, as the config's paths are resolved (`StickMediaChecks`).
        let absolute = given.hasPrefix("/") ? given
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(given)
        let root = realpath(absolute, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? absolute
        let folder = (root as NSString).appendingPathComponent(ImportedContent.stickFolder)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            logger.info("\(device): no \(ImportedContent.stickFolder)/ folder on it; not a stick for the kiosk")
            return nil
        }
        return locked(device: device) { run(folder: folder, root: root, device: device) }
    }

    /// `body` with the content folder made and the import lock held, leftovers of cut-short
    /// imports removed and (`announce`) the status `checking` written; its status (if any) is
    /// written, logged and returned.
    func locked(device: String, announce: Bool = true, _ body: () -> ImportStatus?) -> ImportStatus? {
        do {
            try FileManager.default.createDirectory(atPath: settings.content, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            logger.error("\(settings.content): cannot make the content folder: \(error)")
            return ImportStatus(state: .failed, time: wallClock(), device: device,
                                message: "The content folder \(settings.content) cannot be made", problems: ["\(error)"])
        }
        // One import at a time: a second stick waits for the first.
        let lock = open((settings.content as NSString).appendingPathComponent(".lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if lock >= 0 { _ = retryingOnEINTR { flock(lock, LOCK_EX) } }
        defer { if lock >= 0 { close(lock) } }
        removeLeftovers()

        if announce { report(ImportStatus(state: .checking, time: wallClock(), device: device, message: "Reading the USB stick…")) }
        guard let final = body() else { return nil }
        report(final)
        switch final.state {
        case .done: logger.notice("\(device): \(final.message)")
        default:
            logger.error("\(device): \(final.message)")
            for p in final.problems { logger.error("  \(p)") }
        }
        return final
    }

    /// Check, copy, swap; the status to end with.
    private func run(folder: String, root: String, device: String) -> ImportStatus {
        func failed(_ message: String, _ problems: [String] = []) -> ImportStatus {
            ImportStatus(state: .failed, time: wallClock(), device: device,
                         message: message + " The kiosk shows what it showed before.", problems: problems)
        }
        // What is there.
        let listing: StickListing
        do {
            listing = try StickListing(folder: folder)
        } catch {
            // A damaged file system's EIO or EUCLEAN, named as on the stick.
            let why = (error as? SystemCallError).map { "\(onStick(file: $0, root: root))" } ?? "\(error)"
            return failed("The stick's folder could not be read.", [why])
        }
        for (path, why) in listing.skipped { logger.info("\(device): not copied: \(onStick(path, root: root)) (\(why))") }
        let configFile = (folder as NSString).appendingPathComponent(ImportedContent.configName)
        guard listing.files.contains(configFile) else {
            return failed("The stick has no \(ImportedContent.stickFolder)/\(ImportedContent.configName).",
                          ["\(ImportedContent.stickFolder)/\(ImportedContent.configName): missing (docs/usb.md says what the folder needs)"])
        }
        // A stick too large to take: said with the content file's rules (not its pictures and
        // clips: a large folder is not read through to refuse it), so one look shows all to fix.
        func refused(_ message: String, _ problem: String) -> ImportStatus {
            failed(message, [problem] + check(configFile: configFile, root: root).problems)
        }
        if let broken = limitBroken(files: listing.files.count, bytes: listing.bytes, needing: listing.bytes + (8 << 20),
                                    need: "the stick's folder needs \(Self.mebibytes(listing.bytes)) MiB") {
            return refused(broken.message, broken.problem)
        }
        // The rules, the overlay and every picture and clip, read from the stick.
        let problems = check(configFile: configFile, root: root, media: StickMediaChecks.only(listing, folder: folder)).problems
        if !problems.isEmpty { return failed("The stick's content has problems.", problems) }

        // The copy.
        let incoming = (settings.content as NSString).appendingPathComponent(".incoming-\(getpid())")
        report(ImportStatus(state: .copying, time: wallClock(), device: device, message: "Copying from the USB stick…", bytes: 0))
        do {
            try copy(listing, from: folder, to: incoming, device: device)
        } catch {
            removeTree(incoming)
            let why = (error as? SystemCallError).map { "\(onStick(file: $0, root: root))" } ?? "\(error)"
            return failed("The stick could not be read to the end (was it pulled out?). Nothing changed.", [why])
        }
        let copiedConfig = (incoming as NSString).appendingPathComponent(ImportedContent.configName)
        let copied = check(configFile: copiedConfig, root: root, copy: incoming)
        guard copied.problems.isEmpty else {
            removeTree(incoming)
            return failed("The copy did not read back as the stick did. Nothing changed.", copied.problems)
        }
        // The swap.
        do {
            let generation = try makeCurrent(incoming)
            logger.info("content \(generation) is current (\(listing.files.count) files, \(Self.mebibytes(listing.bytes)) MiB)")
        } catch {
            removeTree(incoming)
            return failed("The copy could not be made current. Nothing changed.", ["\(error)"])
        }
        let count = copied.items
        return ImportStatus(state: .done, time: wallClock(), device: device,
                            message: "New content from the USB stick: \(count) item\(count == 1 ? "" : "s"). You can take the stick out.",
                            items: count, bytes: listing.bytes)
    }

    /// Every problem of the content file, all found in one pass and each at the key
    /// that names its file (`FILE:LINE:COLUMN`), with paths as on the stick (control characters
    /// escaped); and how many items it has. `media`: what is read of its pictures and clips
    /// (`StickMediaChecks` before the copy). `copy`: the file is in this copy of the stick's
    /// folder, whose paths are shown as the stick's (`kiosk-carousel/…`).
    func check(configFile: String, root: String, media: MediaChecks = .none, copy: String? = nil) -> (problems: [String], items: Int) {
        let loaded: (config: KioskConfiguration, tables: Set<String>)
        func shown(_ text: String) -> String {
            guard let copy else { return text }
            return text.replacingOccurrences(of: copy + "/", with: (root as NSString).appendingPathComponent(ImportedContent.stickFolder) + "/")
        }
        do {
            loaded = try ImportedContent.load(path: configFile, allowExec: settings.allowExec, media: media)
            _ = try ImportedContent.overlay(loaded.config, tables: loaded.tables, on: machine, contentFile: configFile)
        } catch let e as ConfigErrors {
            // Paths in the messages as on the stick too (not under the mount point).
            let mounted = PathResolver.standardized(root) + "/"
            return (e.diagnostics.map { d in
                "\(onStick(shown(d.file), root: root))\(d.line > 0 ? ":\(d.line):\(d.column)" : ""): "
                    + StickListing.printable(shown(d.message).replacingOccurrences(of: mounted, with: ""))
            }, 0)
        } catch {
            return (["\(onStick(shown(configFile), root: root)): \(error)"], 0)
        }
        return ([], loaded.config.items.count)
    }

    /// A failed call with its file named as on the stick (`pictures/a.jpg: read: Input/output
    /// error`); a file not under `root` keeps its full path.
    func onStick(file error: SystemCallError, root: String) -> SystemCallError {
        var named = error
        named.subject = error.subject.map { onStick($0, root: root) }
        return named
    }

    /// `path` as a person sees it on the stick: relative to its root, control characters
    /// escaped (`StickListing.printable`).
    func onStick(_ path: String, root: String) -> String {
        let r = PathResolver.standardized(root) + "/"
        let p = PathResolver.standardized(path)
        return StickListing.printable(p.hasPrefix(r) ? String(p.dropFirst(r.count)) : p)
    }

    /// Copies every listed folder and file; each file is written whole and fsync-ed
    /// (`FileCopy`), then the folders. Throws at the first file that cannot be read or written.
    private func copy(_ listing: StickListing, from folder: String, to target: String, device: String) throws {
        removeTree(target)
        guard mkdir(target, 0o755) == 0 else { throw SystemCallError(call: "mkdir", subject: target) }
        let prefix = PathResolver.standardized(folder)
        func destination(_ p: String) -> String { target + String(PathResolver.standardized(p).dropFirst(prefix.count)) }
        for dir in listing.folders {
            guard mkdir(destination(dir), 0o755) == 0 else { throw SystemCallError(call: "mkdir", subject: destination(dir)) }
        }
        var copied: Int64 = 0
        var lastReport = wallClock()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for file in listing.files {
            beforeCopying?(file)
            copied += try FileCopy.copy(file, to: destination(file), buffer: &buffer)
            let t = wallClock()
            if t - lastReport >= 1 {
                lastReport = t
                report(ImportStatus(state: .copying, time: t, device: device, message: "Copying from the USB stick…", bytes: copied))
            }
        }
        for dir in [target] + listing.folders.map(destination) { try FileCopy.syncFolder(dir) }
    }

    /// Renames the copy to a new `gen-…` folder and points `current` at it (a new link renamed
    /// over the old one), then removes generations older than the one it replaced (the running
    /// kiosk may still read that one until it reloads). Returns the new generation's name.
    private func makeCurrent(_ incoming: String) throws -> String {
        let content = settings.content
        let previous = (try? FileManager.default.destinationOfSymbolicLink(atPath: (content as NSString).appendingPathComponent(ImportedContent.currentLink)))
            .map { ($0 as NSString).lastPathComponent }
        let stamp = Int64(wallClock() * 1000)
        var name = "gen-\(stamp)"
        var n = 1
        while FileManager.default.fileExists(atPath: (content as NSString).appendingPathComponent(name)) {
            n += 1
            name = "gen-\(stamp)-\(n)"
        }
        let generation = (content as NSString).appendingPathComponent(name)
        guard rename(incoming, generation) == 0 else { throw SystemCallError(call: "rename", subject: generation) }
        let link = (content as NSString).appendingPathComponent(".\(ImportedContent.currentLink).new")
        unlink(link)
        guard symlink(name, link) == 0 else { throw SystemCallError(call: "symlink", subject: link) }
        guard rename(link, (content as NSString).appendingPathComponent(ImportedContent.currentLink)) == 0 else {
            throw SystemCallError(call: "rename", subject: link)
        }
        try FileCopy.syncFolder(content)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: content)) ?? []
        where old.hasPrefix("gen-") && old != name && old != previous {
            removeTree((content as NSString).appendingPathComponent(old))
        }
        return name
    }

    /// Half copies left by an import that was cut short (a power cut, a killed process); a FAT
    /// stick's staged copy only when the import that made it is gone (`stage(fat:)` and its
    /// `importStick` are two turns of the lock).
    private func removeLeftovers() {
        func staged(byALiveImport name: String) -> Bool {
            guard name.hasPrefix(Self.stagingPrefix), let pid = pid_t(name.dropFirst(Self.stagingPrefix.count)) else { return false }
            return pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: settings.content)) ?? []
        where (name.hasPrefix(".incoming-") || name.hasPrefix(Self.stagingPrefix)) && !staged(byALiveImport: name) {
            logger.info("removing \(name), left by an import that did not finish")
            removeTree((settings.content as NSString).appendingPathComponent(name))
        }
    }

    func removeTree(_ path: String) {
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Writes the status; an unwritable status is logged, never fatal (the import goes on).
    func report(_ status: ImportStatus) {
        do {
            try status.write(to: statusPath)
        } catch {
            logger.warning("cannot write the import status: \(error)")
        }
    }

    /// The first of a stick's limits that `files` and `bytes` break — too many files, more than
    /// `max_mb`, `needed` bytes more than the content folder's free space (`need` says so in the
    /// problem) — as a refusal's message and its located problem; nil within them all.
    func limitBroken(files: Int, bytes: Int64, needing needed: Int64, need: String) -> (message: String, problem: String)? {
        if files > maxFiles {
            return ("The stick's folder has too many files.", "\(ImportedContent.stickFolder)/: \(files) files, more than \(maxFiles)")
        }
        if bytes > Int64(settings.maxMB) << 20 {
            return ("The stick's folder is too large.",
                    "\(ImportedContent.stickFolder)/: \(Self.mebibytes(bytes)) MiB, more than [usb] max_mb = \(settings.maxMB)")
        }
        var fs = statvfs()
        if statvfs(settings.content, &fs) == 0 {
            let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
            if needed > free {
                return ("There is not enough free space for it.", "\(settings.content): \(Self.mebibytes(free)) MiB free, \(need)")
            }
        }
        return nil
    }

    static func mebibytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
