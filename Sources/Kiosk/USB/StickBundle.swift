import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging

/// A system update on a USB stick (docs/updates.md): `kiosk-carousel/update/*.raucb`, or a
/// `*.raucb` at the stick's top. `usb-import` copies it to `update/incoming/` (checked as content
/// is: free space first, the whole file copied and fsync-ed) and installs the copy as
/// `update install` does (`BundleInstaller`), so a stick pulled out half-way changes nothing.
public enum StickBundle {
    /// The folder of a stick's content folder that holds bundles (not copied with the content).
    public static let folder = "update"
    public static let fileExtension = "raucb"

    /// The bundle on the stick mounted at `root`, nil when there is none (the newest name when
    /// there are several: `kiosk-carousel-0.1.2-amd64.raucb` after `…-0.1.1-…`).
    public static func find(root: String) -> String? {
        for dir in [root + "/" + ImportedContent.stickFolder + "/" + folder, root] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
                .filter { $0.hasSuffix("." + fileExtension) && !$0.hasPrefix(".") }
                .filter { name in
                    var st = stat()
                    return lstat(dir + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
                }
                .sorted { VersionOrder.compare($0, $1) < 0 }
            if let last = names.last { return dir + "/" + last }
        }
        return nil
    }

    /// Why a bundle could not be taken off the stick. A failed system call stays a
    /// `SystemCallError` (its errno) until the failure is printed.
    public enum CopyFailure: Error, CustomStringConvertible {
        /// `update/incoming/` (the path) could not be made; Foundation's error.
        case folderNotMade(String, any Error)
        /// The bundle on the stick could not be `stat`-ed.
        case unreadable(SystemCallError)
        /// `update/incoming/`'s file system has `free` bytes, too few for a bundle of `size` (and 8 MiB to spare).
        case noSpace(free: Int64, size: Int64)
        /// The copy ended after `copied` of the bundle's `size` bytes.
        case shortRead(bundle: String, copied: Int64, size: Int64)
        /// Reading the bundle, or writing, flushing or renaming its copy, failed.
        case copyFailed(SystemCallError)

        public var description: String {
            switch self {
            case .folderNotMade(let folder, let error): return "\(folder) cannot be made: \(error)"
            case .unreadable(let error): return "\(error)"
            case .noSpace(let free, let size):
                return "not enough free space for it: \(ContentImporter.mebibytes(free)) MiB free, the bundle is \(ContentImporter.mebibytes(size)) MiB"
            case .shortRead(let bundle, let copied, let size): return "\(bundle): \(copied) of \(size) bytes read (was the stick pulled out?)"
            case .copyFailed(let error): return "the stick could not be read to the end (was it pulled out?): \(error)"
            }
        }
    }

    /// Copies `bundle` into `paths.incoming` (whole, fsync-ed, through a `.part` name); returns the copy.
    public static func copyToIncoming(_ bundle: String, paths: UpdatePaths) throws(CopyFailure) -> String {
        do {
            try FileManager.default.createDirectory(atPath: paths.incoming, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw .folderNotMade(paths.incoming, error)
        }
        // What an earlier import left (a power cut): not kept.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: paths.incoming)) ?? [] {
            unlink(paths.incoming + "/" + name)
        }
        var st = stat(), fs = statvfs()
        guard stat(bundle, &st) == 0 else { throw .unreadable(SystemCallError(call: "stat", subject: bundle)) }
        let size = Int64(st.st_size)
        if statvfs(paths.incoming, &fs) == 0 {
            let free = Int64(fs.f_bavail) * Int64(fs.f_frsize)
            if size + (8 << 20) > free { throw .noSpace(free: free, size: size) }
        }
        let name = (bundle as NSString).lastPathComponent
        let target = paths.incoming + "/" + name, part = target + ".part"
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let copied: Int64
        do {
            copied = try FileCopy.copy(bundle, to: part, buffer: &buffer)
        } catch {
            unlink(part)
            throw .copyFailed(error)
        }
        guard copied == size else {
            unlink(part)
            throw .shortRead(bundle: bundle, copied: copied, size: size)
        }
        guard rename(part, target) == 0 else {
            let failed = SystemCallError(call: "rename", subject: target)
            unlink(part)
            throw .copyFailed(failed)
        }
        do {
            try FileCopy.syncFolder(paths.incoming)
        } catch {
            throw .copyFailed(error)
        }
        return target
    }

    /// Takes the bundle on the stick at `root` (`device` names it): copies and installs it;
    /// nil when the stick has none.
    public static func take(root: String, device: String, installer: BundleInstaller, logger: Logger) -> BundleInstaller.Outcome? {
        guard let bundle = find(root: root) else { return nil }
        let source = "\(device) (\((bundle as NSString).lastPathComponent))"
        logger.info("\(device): update bundle \(bundle.dropFirst(root.count)) found")
        installer.report(.installing, source, "Copying the update from the USB stick…", running: installer.identity.version)
        let copy: String
        do {
            copy = try copyToIncoming(bundle, paths: installer.paths)
        } catch {
            installer.report(.failed, source, "The update could not be copied from the USB stick: \(error).", running: installer.identity.version)
            logger.error("\(device): \(error)")
            return .notFetched(Downloader.Failure(description: "\(error)", resumable: false))
        }
        defer { unlink(copy) }
        return installer.install(copy, source: source)
    }
}
