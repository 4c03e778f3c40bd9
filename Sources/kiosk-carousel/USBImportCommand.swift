import ArgumentParser
import Cards
import Foundation
import Kiosk
import KioskConfig
import Logging

/// `usb-import DEVICE`: what udev's `kiosk-carousel-usb@.service` runs (as root) when a USB
/// drive appears: reads a FAT stick with mtools in a sandbox (`FATStick`) or mounts another file
/// system read-only, checks and copies its `kiosk-carousel/` folder into
/// `[usb] content`, unmounts it (docs/usb.md); a system update bundle on it is installed
/// (`StickBundle`, docs/updates.md). The running kiosk sees the statuses and reloads.
struct USBImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "usb-import",
        abstract: "Take the content of a USB stick's kiosk-carousel/ folder: check it, copy it, make it current.",
        usage: "kiosk-carousel usb-import [DEVICE] [options]",
        discussion: """
            Run by kiosk-carousel-usb@.service (udev starts it for a USB drive's file system). Exits 0 when \
            the content was taken, or when there is nothing to do ([usb] import off, no kiosk-carousel/ \
            folder on the stick); 1 when the stick was refused (the screen and the journal say why). \
            docs/usb.md says what the folder needs.
            """)
    @OptionGroup var config: ConfigOption
    @Argument(help: "The stick's block device, e.g. /dev/sda1 (FAT: read with mtools in a sandbox; other file systems: mounted read-only while it is read).")
    var device: String?
    @Option(help: "Read a folder that holds kiosk-carousel/ (a stick already mounted) instead of a device.")
    var folder: String?
    @Option(help: ArgumentHelp("The updater's folder, for an update bundle on the stick (docs/updates.md).", valueName: "dir"))
    var stateDir = UpdatePaths.defaultFolder
    @Option(help: ArgumentHelp("The rauc program, for an update bundle on the stick.", valueName: "path"))
    var rauc = "rauc"

    func validate() throws {
        if (device == nil) == (folder == nil) { throw ValidationError("give a DEVICE or --folder DIR (one of them)") }
    }

    func run() throws {
        KioskLogging.bootstrap(level: .info)
        let logger = Logger(label: "kiosk-carousel.usb")
        let path = config.path
        // The machine's own file, alone. A file with problems still names its [usb]: a stick can
        // then bring content to a kiosk whose own file is broken.
        let (machine, problems) = ImportedContent.machineConfiguration(path: path)
        if !problems.isEmpty { logger.warning("\(path) has \(problems.count) problem(s); using what can be read of it") }
        guard machine.usb.importEnabled else {
            logger.info("USB import is off in \(path) ([usb] import = true turns it on): the stick is not read")
            return
        }
        let importer = ContentImporter(machine: machine, logger: logger)
        let installer = BundleInstaller(paths: UpdatePaths(folder: stateDir), rauc: RaucClient(program: rauc), logger: logger)
        /// A system update bundle first (docs/updates.md), then the content; a stick with only a
        /// bundle has no content to take.
        func take(root: String, device: String) -> (ImportStatus?, BundleInstaller.Outcome?) {
            let update = StickBundle.take(root: root, device: device, installer: installer, logger: logger)
            let hasContent = FileManager.default.fileExists(atPath: root + "/" + ImportedContent.stickFolder + "/" + ImportedContent.configName)
            return (update == nil || hasContent ? importer.importStick(root: root, device: device) : nil, update)
        }
        let status: ImportStatus?, update: BundleInstaller.Outcome?
        if let folder {
            (status, update) = take(root: folder, device: folder)
        } else if let device {
            // [usb] file_systems may refuse a type; with fat_without_mount FAT is read by mtools in a
            // sandbox, not mounted.
            let type = StickFileSystem.type(of: device)
            let accepted = machine.usb.fileSystems
            if !accepted.isEmpty, !accepted.contains(type ?? "") {
                logger.error("\(device): \(type.map { "a \($0) file system" } ?? "no file system blkid recognises"); [usb] file_systems = [\(accepted.joined(separator: ", "))] in \(path) does not take it: the stick is not read")
                throw ExitCode(1)
            }
            if type == "vfat", machine.usb.fatWithoutMount {
                logger.info("\(device): FAT, read with mtools in a sandbox (not mounted)")
                switch importer.stage(fat: FATStick(device: device)) {
                case .notForKiosk:
                    (status, update) = (nil, nil)
                case .failed(let refused):
                    (status, update) = (refused, nil)
                case .unreadable(let why):
                    logger.error("\(why)")
                    throw ExitCode(1)
                case .staged(let root):
                    (status, update) = take(root: root, device: device)
                    importer.removeStaging(root)
                }
            } else {
                (status, update) = try mounted(device: device, logger: logger, take: take)
            }
        } else {
            (status, update) = (nil, nil)
        }
        switch update {
        case .refused?, .notFetched?, .deferred?: throw ExitCode(1)
        default: break
        }
        if status?.state == .failed { throw ExitCode(1) }
    }

    /// A stick of another file system than FAT: mounted read-only by the kernel, read, unmounted.
    private func mounted(device: String, logger: Logger,
                         take: (String, String) -> (ImportStatus?, BundleInstaller.Outcome?)) throws -> (ImportStatus?, BundleInstaller.Outcome?) {
        let mount: StickMount
        do {
            mount = try StickMount(device: device)
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        logger.info("\(device) mounted read-only at \(mount.point) (\(mount.type))")
        let result = take(mount.point, device)
        mount.unmount()
        return result
    }
}
