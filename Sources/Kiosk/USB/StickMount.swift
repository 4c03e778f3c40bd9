import CLinux
import Foundation
import Glibc
import LinuxSystem

/// A USB stick's file system mounted read-only, without programs or devices
/// (`nosuid,nodev,noexec,noatime`), at a private folder under `/run/kiosk-carousel-usb`; the
/// file system's type is found by trying the usual ones, as `mount` without `-t` does.
public final class StickMount {
    /// The device, e.g. `/dev/sda1`.
    public let device: String
    /// Where it is mounted.
    public let point: String
    /// The file system type it mounted as.
    public let type: String
    private var mounted = true

    /// The types tried first, in order (sticks are FAT or exFAT; the rest are what people format
    /// disks with), then whatever else the kernel has. Asking for a type loads its module.
    static let usualTypes = ["vfat", "exfat", "ext4", "ntfs3", "iso9660", "udf", "btrfs", "xfs", "ext3", "ext2"]

    /// Mounts `device`; throws with every type tried when none mounts.
    public init(device: String, under parent: String = "/run/kiosk-carousel-usb") throws {
        self.device = device
        mkdir(parent, 0o700)
        // One per import (a second one of the same device, run by hand, gets its own).
        let point = (parent as NSString).appendingPathComponent("\((device as NSString).lastPathComponent)-\(getpid())")
        mkdir(point, 0o700)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: point, isDirectory: &isDir), isDir.boolValue else {
            throw MountFailure(device: device, reason: .noMountPoint(point))
        }
        self.point = point
        var tried: [String] = []
        for type in Self.candidateTypes() {
            let r = kiosk_mount_readonly(device, point, type, Self.options(for: type))
            if r == 0 {
                self.type = type
                return
            }
            switch -r {
            case EINVAL, ENODEV, EIO:
                tried.append(type)     // not this type (EIO: some drivers' answer to a foreign superblock)
            default:
                rmdir(point)
                throw MountFailure(device: device, reason: .mount(type: type, errno: -r))
            }
        }
        rmdir(point)
        throw MountFailure(device: device, reason: .noFileSystem(tried: tried))
    }

    /// Unmounts (lazily when something still holds it: a pulled stick) and removes the folder.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        if kiosk_umount(point, 0) != 0 { _ = kiosk_umount(point, 1) }
        rmdir(point)
    }

    deinit { unmount() }

    /// `usualTypes`, then the other block-device types of `/proc/filesystems`.
    static func candidateTypes() -> [String] {
        let listed = ((try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? "")
            .split(separator: "\n")
            .filter { !$0.hasPrefix("nodev") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !["fuseblk"].contains($0) }
        return usualTypes + listed.filter { !usualTypes.contains($0) }
    }

    /// Mount options that make names read as UTF-8 where the type has a choice.
    static func options(for type: String) -> String? {
        switch type {
        case "vfat": return "utf8,shortname=mixed"
        case "exfat", "ntfs3": return "iocharset=utf8"
        default: return nil
        }
    }
}

/// A stick that could not be mounted: the device and why, an errno kept as a number until printed.
public struct MountFailure: Error, Equatable, CustomStringConvertible {
    /// Why the stick was not mounted.
    public enum Reason: Equatable, Sendable {
        /// The folder to mount it at could not be made.
        case noMountPoint(String)
        /// `mount(2)` as `type` failed with `errno` (not the "not this type" answers).
        case mount(type: String, errno: Int32)
        /// No type mounted; the types tried.
        case noFileSystem(tried: [String])
    }

    public var device: String
    public var reason: Reason

    /// `DEVICE: reason`, e.g. `/dev/sda1: mount as vfat: Permission denied`.
    public var description: String {
        switch reason {
        case .noMountPoint(let point): return "\(device): cannot make the mount point \(point)"
        case .mount(let type, let errno): return "\(device): \(SystemCallError(call: "mount as \(type)", errno: errno))"
        case .noFileSystem(let tried):
            return "\(device): no file system this kernel can read (tried \(tried.joined(separator: ", ")))"
        }
    }
}
