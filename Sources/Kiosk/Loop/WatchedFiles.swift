import Cards
import Foundation
import KioskConfig
import LinuxSystem

/// inotify on the config file, every item image, clip and poster, the items folder, and the
/// files other components ask for (`KioskComponent.watchedFiles`): their folders are watched
/// (so that editors' atomic renames are seen), and the folder holding the items folder (so that
/// the items folder moved away, deleted or made again is seen). The config file changed:
/// reload at once; the items folder: once its changes settle (0.3 s of quiet, at most 3 s);
/// pictures changed on disk are drawn again.
final class WatchedFiles: KioskComponent {
    private unowned let context: KioskContext
    let files: MediaWatcher
    /// Changes in the items folder wait for 0.3 s of quiet (at most 3 s) before a reload.
    private var folderSettle = QuietPeriod(quiet: 0.3, longest: 3)
    /// The items folder itself was deleted, moved or made since its last listing.
    private var itemsFolderReplaced = false
    /// The last listing of the items folder was refused (it was empty or gone): the items shown
    /// are not what the folder holds.
    private var itemsFolderStale = false
    /// Folders that could not be watched, already logged (said once, not at every reload).
    private var reportedUnwatchable: Set<String> = []

    init(context: KioskContext) throws {
        self.context = context
        files = try MediaWatcher()
    }

    func attach(to reactor: Reactor) throws {
        try reactor.watch(files.fd) { [unowned self] in self.changed() }
        watchAll()
    }

    /// A reload was adopted: the items listed are the folder's.
    func configAdopted(_ config: KioskConfiguration) { itemsFolderStale = false }

    var nextDeadline: Double? { folderSettle.due }
    func deadlineReached(now: Double) { itemsFolderSettled(now: now) }

    /// The config file path, absolute.
    private var configFile: String { WatchedPaths.absolute(context.store.path) }

    /// What the other components watch.
    private var othersWatched: [String] { context.components.flatMap(\.watchedFiles) }

    /// Watches the files of the running configuration (call after every reload, adopted or not).
    func watchAll() {
        let config = context.behavior.loadedConfig  // every item, also those a schedule window hides now
        let folders = config.itemsDirectory.directory.map { [$0] } ?? []
        let skipped = files.watch(files: [configFile] + config.items.flatMap(\.mediaFiles) + folders + othersWatched,
                                  folders: folders)
        // A missing items folder is the reload's to report (it names the config line).
        for folder in skipped where !reportedUnwatchable.contains(folder) && FileManager.default.fileExists(atPath: folder) {
            context.logger.warning("cannot watch \(folder) for changes (not readable, or too many watches)")
        }
        reportedUnwatchable = Set(skipped)
    }

    /// inotify fired: the other components hear of their files; reload for the config file (at
    /// once) or the items folder (once its changes settle), and redraw the cards whose images
    /// changed.
    func changed() {
        let changed = files.drainChangedPaths()
        let others = Set(othersWatched)
        let changedSet = Set(changed)
        if !others.isDisjoint(with: changedSet) {
            for c in context.components { c.filesChanged(changedSet) }
        }
        if changed.contains(configFile) {
            context.requestReload(reason: "the config file changed")
        } else if let dir = itemsFolder, changed.contains(dir) || changed.contains(where: changesItemsFolderListing) {
            // The folder itself came or went: what is in it was not watched meanwhile.
            if changed.contains(dir) { itemsFolderReplaced = true }
            folderSettle.note(context.now)
        }
        // Pictures changed on disk are drawn again (also those renamed over others in the items
        // folder: same file name, same item). A picture that is gone keeps the face it shows:
        // the kiosk keeps showing what it showed (an emptied folder leaves the carousel as it
        // was; the reload says why in one line).
        let pictures = changed.filter { $0 != configFile && !others.contains($0) && FileManager.default.fileExists(atPath: $0) }
        if !pictures.isEmpty { context.session.invalidateCards(paths: pictures) }
    }

    /// Does a change of `path` change what the items folder lists? A picture that came (not an
    /// item yet) or went (an item whose file is gone) does; a picture rewritten in place or
    /// renamed over one of the same name only needs drawing again. (inotify's IN_CREATE and
    /// IN_CLOSE_WRITE of one copied file can come in different reads, so this looks at the
    /// folder, not at the kind of event.)
    private func changesItemsFolderListing(_ path: String) -> Bool {
        guard let dir = itemsFolder, (path as NSString).deletingLastPathComponent == dir else { return false }
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix("."),
              context.session.config.itemsDirectory.extensions.contains((name as NSString).pathExtension.lowercased()) else { return false }
        if itemsFolderStale { return true }
        let isItem = context.behavior.loadedConfig.items.contains { $0.mediaFiles.contains { PathResolver.standardized($0) == path } }
        return !isItem || !FileManager.default.fileExists(atPath: path)
    }

    /// The items folder (absolute), if the items come from one.
    private var itemsFolder: String? { context.session.config.itemsDirectory.directory.map { PathResolver.standardized($0) } }

    /// The items folder's changes have settled: list it again. When the folder itself was
    /// replaced, its pictures are drawn again (they were not watched).
    private func itemsFolderSettled(now t: Double) {
        guard folderSettle.take(t) else { return }
        context.requestReload(reason: "the items folder changed") { [unowned self] adopted in
            // Refused (emptied, gone): the items shown no longer match the folder, so any picture
            // that comes back must list it again, even one with the name of a shown item.
            if !adopted { self.itemsFolderStale = true }
            let session = self.context.session
            if self.itemsFolderReplaced, let dir = self.itemsFolder, FileManager.default.fileExists(atPath: dir) {
                self.itemsFolderReplaced = false
                session.invalidateCards(paths: session.config.items.flatMap(\.mediaFiles).filter {
                    PathResolver.standardized($0).hasPrefix(dir + "/")
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
        return PathResolver.standardized(abs)
    }
}
