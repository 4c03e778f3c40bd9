import Foundation
import KioskConfig

/// Configuration and media changes: SIGHUP, the `reload` command, or inotify on the config
/// file, the item images and the items folder.
extension KioskApp {
    /// Parses and validates the config again; on any error keeps the running one.
    public func reload(reason: String) {
        guard let new = behavior.reload(path: configPath, reason: reason, now: now, logger: logger) else { return }
        actions.update(settings: new.actions)
        if new.control.socket != control?.path {
            logger.warning("[control] socket changed: takes effect at the next start")
        }
        watchFiles()
    }

    /// Watches the config file, every item image and the items folder (their folders, so that
    /// editors' atomic renames are seen).
    func watchFiles() {
        let config = session.config
        let folders = config.itemsDirectory.directory.map { [$0] } ?? []
        let skipped = files.watch(files: [WatchedPaths.absolute(configPath)] + config.items.compactMap(\.image), folders: folders)
        for folder in skipped { logger.warning("cannot watch \(folder) for changes (missing or not readable)") }
    }

    /// inotify fired: reload for the config file or a changed items folder, else redraw the
    /// cards whose images changed.
    func filesChanged() {
        let changed = files.drainChangedPaths()
        let folderChanged = files.folderChanged
        let configFile = WatchedPaths.absolute(configPath)
        if changed.contains(configFile) {
            reload(reason: "the config file changed")
            return
        }
        if folderChanged, let dir = session.config.itemsDirectory.directory,
           changed.contains(where: { ($0 as NSString).deletingLastPathComponent == (dir as NSString).standardizingPath }) {
            reload(reason: "the items folder changed")
            return
        }
        if !changed.isEmpty { session.invalidateCards(paths: changed) }
    }
}

/// Path normalisation for the watched files.
enum WatchedPaths {
    /// `p` made absolute against the working folder, with `.`/`..` resolved.
    static func absolute(_ p: String) -> String {
        let abs = p.hasPrefix("/") ? p : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(p)
        return (abs as NSString).standardizingPath
    }
}
