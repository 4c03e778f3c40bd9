import Foundation
import Glibc
import KioskConfig

/// A FAT stick's side of the import (docs/usb.md, "Reading FAT without a kernel mount"): its
/// folder copied off the stick by mtools in a sandbox (`FATStick`), into a staging folder that
/// `importStick(root:device:)` then checks and copies as it does a mounted stick.
extension ContentImporter {
    /// What `stage(fat:)` did.
    public enum Staging {
        /// The stick has no `kiosk-carousel/` folder: nothing written, nothing shown.
        case notForKiosk
        /// The folder is copied under this root (`ROOT/kiosk-carousel/…`), to be imported with
        /// `importStick(root:device:)` and then removed with `removeStaging`.
        case staged(root: String)
        /// Refused or failed before or during the copy; the status is written.
        case failed(ImportStatus)
        /// The stick could not be listed (a damaged file system, the sandbox): logged, nothing shown.
        case unreadable(String)
    }

    /// A FAT stick read without a kernel mount: mtools lists and sums its folder (refused as a
    /// mounted stick's would be: too many files, larger than `max_mb`, or than the free space
    /// for it and its checked copy), then copies it in its sandbox into `content/.stick-PID`.
    /// The checks of `importStick` then run on that copy, before anything becomes current.
    public func stage(fat stick: FATStick) -> Staging {
        let contents: FATStick.Contents
        do {
            guard let listed = try stick.contents() else {
                logger.info("\(stick.device): no \(ImportedContent.stickFolder)/ folder and no update bundle on it; not a stick for the kiosk")
                return .notForKiosk
            }
            contents = listed
        } catch {
            return .unreadable("\(error)")
        }
        let summary = contents.folder ?? FATStick.Summary(files: 0, bytes: 0)
        let device = stick.device
        var staging: String?
        // A stick with only an update bundle (kiosk-carousel/update/) shows no content card.
        let status = locked(device: device, announce: summary.hasConfig) { () -> ImportStatus? in
            func failed(_ message: String, _ problems: [String]) -> ImportStatus {
                ImportStatus(state: .failed, time: wallClock(), device: device,
                             message: message + " The kiosk shows what it showed before.", problems: problems)
            }
            if !summary.caseCollisions.isEmpty {
                return failed("Two names in one folder on the stick differ only in case.", summary.caseCollisions)
            }
            // The copy off the stick, and the checked copy made current (or the bundle's).
            let needed = 2 * contents.bytes + (8 << 20)
            if let broken = limitBroken(files: summary.files, bytes: summary.bytes, needing: needed,
                                        need: "the stick's folder and bundles need \(Self.mebibytes(needed)) MiB (read off the stick, then checked and copied)") {
                return failed(broken.message, [broken.problem])
            }
            let folder = (settings.content as NSString).appendingPathComponent("\(Self.stagingPrefix)\(getpid())")
            func reading(_ bytes: Int64) {
                guard summary.hasConfig else { return }
                report(ImportStatus(state: .reading, time: wallClock(), device: device, message: "Reading the USB stick…", bytes: bytes))
            }
            reading(0)
            removeTree(folder)   // one left by an earlier process of the same id (a power cut, a reboot)
            do {
                try stick.copy(contents, into: folder, progress: reading)
            } catch {
                removeTree(folder)
                return failed("The stick could not be read to the end (was it pulled out?). Nothing changed.", ["\(error)"])
            }
            staging = folder
            return nil
        }
        if let status { return .failed(status) }
        return staging.map { .staged(root: $0) } ?? .notForKiosk
    }

    /// Removes a FAT stick's staged copy (`stage(fat:)`).
    public func removeStaging(_ root: String) { removeTree(root) }

    /// Where a FAT stick is copied before its check: `content/.stick-PID`.
    static let stagingPrefix = ".stick-"
}
