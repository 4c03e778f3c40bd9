import Foundation

/// A stick's file system type as blkid's low-level probe names it (`vfat`, `exfat`, `ext4`, …),
/// read before anything is mounted: it decides between the kernel mount and the FAT reader
/// (docs/usb.md). blkid parses the superblock in userspace, as udev's own rules already do.
public enum StickFileSystem {
    /// `blkid -p -o value -s TYPE DEVICE`; nil when blkid finds no file system (or cannot run).
    public static func type(of device: String, blkid: String = "blkid") -> String? {
        guard let r = try? ChildProcess.run([blkid, "-p", "-o", "value", "-s", "TYPE", device]), r.status == 0 else { return nil }
        let type = r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return type.isEmpty ? nil : type
    }
}
