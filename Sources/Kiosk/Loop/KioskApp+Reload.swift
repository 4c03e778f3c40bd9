import Foundation
import KioskConfig

/// Configuration and media changes: SIGHUP, the `reload` command, or inotify on the config
/// file, the item images and the items folder.
extension KioskApp {
    /// Parses and validates the config again; on any error keeps the running one.
    public func reload(reason: String) {
        do {
            let new = try ConfigLoader.load(path: configPath)
            session.reload(new, now: now)
            actions.update(settings: new.actions)
            applyIdle(idle.reconfigure(IdlePolicy(new.idle), now: now), now: now)
            if new.control.socket != control?.path {
                logger.warning("[control] socket changed: takes effect at the next start")
            }
            watchFiles()
            logger.notice("reloaded \(configPath) (\(reason)): \(new.items.count) items")
            log.write(time: now, name: "reloaded", fields: [("ok", "true")])
        } catch let e as ConfigErrors {
            for d in e.diagnostics { logger.error("\(d.description)") }
            logger.error("kept the running configuration: \(configPath) has \(e.diagnostics.count) problem(s)")
            log.write(time: now, name: "reloaded", fields: [("ok", "false"), ("problems", String(e.diagnostics.count))])
        } catch {
            logger.error("reload of \(configPath) failed: \(error); kept the running configuration")
        }
    }


    /// Watches the config file, every item image and the items folder (their folders, so that
    /// editors' atomic renames are seen).
    func watchFiles() {
        let config = session.config
        let folders = config.itemsDirectory.directory.map { [$0] } ?? []
        let skipped = files.watch(files: [FileWatcherPaths.absolute(configPath)] + config.items.compactMap(\.image), folders: folders)
        for folder in skipped { logger.warning("cannot watch \(folder) for changes (missing or not readable)") }
    }

    /// inotify fired: reload for the config file or a changed items folder, else redraw the
    /// cards whose images changed.
    func filesChanged() {
        let changed = files.drainChangedPaths()
        let folderChanged = files.folderChanged
        let configFile = FileWatcherPaths.absolute(configPath)
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

/// Path normalisation shared by the watchers.
enum FileWatcherPaths {
    /// `p` made absolute against the working folder, with `.`/`..` resolved.
    static func absolute(_ p: String) -> String {
        let abs = p.hasPrefix("/") ? p : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(p)
        return (abs as NSString).standardizingPath
    }
}
