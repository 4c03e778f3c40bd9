import Foundation
import KioskConfig

/// Configuration and media changes: SIGHUP, the `reload` command, or inotify on the config
/// file, the item images and the items folder.
extension KioskApp {
    /// Reloads the config file off the loop (`ConfigReloader`): read, validated and its clips
    /// probed on a worker thread, then adopted or refused on the loop (`finishReload`); `then`
    /// hears which, once known. What the loop calls for SIGHUP, the control socket's `reload`,
    /// the config file or the items folder changed, and new USB content.
    func requestReload(reason: String, then answer: ConfigReloader.Answer? = nil) {
        reloader.request(reason: reason, then: answer)
    }

    /// Parses and validates the config again on the calling thread (clips probed here too) and
    /// applies it; on any error keeps the running one (and returns false). For tests and tools
    /// that drive the kiosk without its loop; the loop itself reloads with `requestReload`.
    @discardableResult
    public func reload(reason: String) -> Bool {
        finishReload(KioskBehavior.load(path: configPath, media: behavior.media), reason: reason)
    }

    /// Adopts what a reload read (`KioskBehavior.load`), or refuses it and keeps what is shown:
    /// the running configuration, or the start-up problem card (`startAfterProblems`).
    @discardableResult
    func finishReload(_ loaded: Result<KioskConfiguration, any Error>, reason: String) -> Bool {
        // Watched again also when the reload is refused: an items folder deleted and made
        // again is a new folder to watch, at the same path.
        defer { watchFiles() }
        if !configProblems.isEmpty { return startAfterProblems(loaded, reason: reason) }
        guard let new = behavior.apply(loaded, path: configPath, reason: reason, now: now, logger: logger) else { return false }
        itemsFolderStale = false
        adopt(new)
        return true
    }

    /// A configuration the kiosk adopted (a reload applied, or the fixed file that replaced the
    /// problem card; the behaviour and the session have it already): `[actions]`, `render_scale`
    /// and the services (`ConfiguredServices`: metrics, control socket, USB content folder)
    /// follow it. What the kiosk started with is adopted in `init`.
    func adopt(_ new: KioskConfiguration) {
        actions.update(settings: new.actions)
        applyRenderScale(new.display.renderScale)
        try? services.adopt(new)  // only the start throws; later failures are logged
    }

    /// Watches the config file, every item image, clip and poster, and the items folder: their folders (so that
    /// editors' atomic renames are seen), and the folder holding the items folder (so that the
    /// items folder moved away, deleted or made again is seen).
    func watchFiles() {
        let config = behavior.loadedConfig  // every item, also those a schedule window hides now
        let folders = config.itemsDirectory.directory.map { [$0] } ?? []
        let skipped = files.watch(files: [WatchedPaths.absolute(configPath)] + config.items.flatMap(\.mediaFiles) + folders
                                      + (usbStatusPath.map { [$0] } ?? []),
                                  folders: folders)
        // A missing items folder is the reload's to report (it names the config line).
        for folder in skipped where !reportedUnwatchable.contains(folder) && FileManager.default.fileExists(atPath: folder) {
            logger.warning("cannot watch \(folder) for changes (not readable, or too many watches)")
        }
        reportedUnwatchable = Set(skipped)
    }

    /// inotify fired: reload for the config file (at once) or the items folder (once its
    /// changes settle: `folderSettle`), and redraw the cards whose images changed.
    func filesChanged() {
        let changed = files.drainChangedPaths()
        let configFile = WatchedPaths.absolute(configPath)
        let statusFile = usbStatusPath
        if let statusFile, changed.contains(statusFile) { usbStatusChanged() }
        if changed.contains(configFile) {
            requestReload(reason: "the config file changed")
        } else if let dir = itemsFolder, changed.contains(dir) || changed.contains(where: changesItemsFolderListing) {
            // The folder itself came or went: what is in it was not watched meanwhile.
            if changed.contains(dir) { itemsFolderReplaced = true }
            folderSettle.note(now)
        }
        // Pictures changed on disk are drawn again (also those renamed over others in the items
        // folder: same file name, same item). A picture that is gone keeps the face it shows:
        // the kiosk keeps showing what it showed (an emptied folder leaves the carousel as it
        // was; the reload says why in one line).
        let pictures = changed.filter { $0 != configFile && $0 != statusFile && FileManager.default.fileExists(atPath: $0) }
        if !pictures.isEmpty { session.invalidateCards(paths: pictures) }
    }

    /// Does a change of `path` change what the items folder lists? A picture that came (not an
    /// item yet) or went (an item whose file is gone) does; a picture rewritten in place or
    /// renamed over one of the same name only needs drawing again. (inotify's IN_CREATE and
    /// IN_CLOSE_WRITE of one copied file can come in different reads, so this looks at the
    /// folder, not at the kind of event.)
    func changesItemsFolderListing(_ path: String) -> Bool {
        guard let dir = itemsFolder, (path as NSString).deletingLastPathComponent == dir else { return false }
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix("."),
              session.config.itemsDirectory.extensions.contains((name as NSString).pathExtension.lowercased()) else { return false }
        if itemsFolderStale { return true }
        let isItem = behavior.loadedConfig.items.contains { $0.mediaFiles.contains { ($0 as NSString).standardizingPath == path } }
        return !isItem || !FileManager.default.fileExists(atPath: path)
    }

    /// The items folder (absolute), if the items come from one.
    var itemsFolder: String? { session.config.itemsDirectory.directory.map { ($0 as NSString).standardizingPath } }

    /// The items folder's changes have settled (the service timer fired): list it again. When
    /// the folder itself was replaced, its pictures are drawn again (they were not watched).
    func itemsFolderSettled(now t: Double) {
        guard folderSettle.take(t) else { return }
        requestReload(reason: "the items folder changed") { [unowned self] adopted in
            // Refused (emptied, gone): the items shown no longer match the folder, so any picture
            // that comes back must list it again, even one with the name of a shown item.
            if !adopted { self.itemsFolderStale = true }
            if self.itemsFolderReplaced, let dir = self.itemsFolder, FileManager.default.fileExists(atPath: dir) {
                self.itemsFolderReplaced = false
                self.session.invalidateCards(paths: self.session.config.items.flatMap(\.mediaFiles).filter {
                    ($0 as NSString).standardizingPath.hasPrefix(dir + "/")
                })
            }
        }
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
