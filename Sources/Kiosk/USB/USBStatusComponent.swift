import Cards
import Foundation
import JSON
import KioskConfig

/// Content from a USB stick (docs/usb.md) in the loop: `usb-import` (run as root by udev's
/// `kiosk-carousel-usb@.service`) writes its progress and result to `[usb] content/status.json`;
/// this component watches that file, shows a card for it, and reloads when new content is
/// current. It also makes the content folder when `[usb] import` is on and it is missing (so
/// that it can be watched before the first stick; `usb-import` writes into it as root).
final class USBStatusComponent: KioskComponent {
    private unowned let context: KioskContext
    /// The last status shown: the same file seen again is not news.
    private var lastStatus: ImportStatus?

    init(config: KioskConfiguration, context: KioskContext) {
        self.context = context
        prepareContentFolder(config)
    }

    /// The status file watched; nil when neither `[usb] import` nor `[content] url` is set.
    var statusPath: String? {
        let config = context.behavior.loadedConfig
        return config.takesImportedContent ? ImportStatus.path(in: PathResolver.standardized(config.usb.content)) : nil
    }

    var watchedFiles: [String] { statusPath.map { [$0] } ?? [] }

    func filesChanged(_ paths: Set<String>) {
        if let path = statusPath, paths.contains(path) { statusChanged() }
    }

    func configAdopted(_ config: KioskConfiguration) { prepareContentFolder(config) }

    /// `[usb] import`: makes the content folder when missing. Failure is only logged: the kiosk
    /// runs on without.
    private func prepareContentFolder(_ config: KioskConfiguration) {
        let usb = config.usb
        guard config.takesImportedContent, !FileManager.default.fileExists(atPath: usb.content) else { return }
        do {
            try FileManager.default.createDirectory(atPath: usb.content, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            context.logger.warning("[usb] content \(usb.content) cannot be made (\(error)); USB sticks are read, but the screen will not say so")
        }
    }

    /// The status file changed: show what it says; new content is loaded at once.
    func statusChanged() {
        guard let path = statusPath, let status = ImportStatus.read(from: path) else { return }
        // A status older than this kiosk (left from an import long done) is not news.
        guard status.time >= context.startWallTime - 1, status != lastStatus else { return }
        lastStatus = status
        let session = context.session, behavior = context.behavior, now = context.now
        let seconds = behavior.loadedConfig.usb.noticeSeconds
        // A content bundle from a server (`[content] url`) names its URL as the device.
        let fromServer = status.device.hasPrefix("https://") || status.device.hasPrefix("http://")
        var fields: [(String, String)] = [("state", JSONString.quoted(status.state.rawValue)), ("device", JSONString.quoted(status.device))]
        switch status.state {
        case .checking, .reading, .copying:
            if status.state == .checking || behavior.sceneCards.notice == nil {
                behavior.sceneCards.showNotice(until: now + 600) { l in
                    fromServer ? MessageCard(tone: .notice, title: KioskStrings.text(.checkingContent, l), lines: [])
                        : MessageCard(tone: .notice, title: KioskStrings.text(.readingStick, l), lines: [KioskStrings.text(.leaveStickIn, l)])
                }
            }
        case .done:
            fields.append(("items", "\(status.items ?? 0)"))
            // Read off the loop: the card says the outcome once it is known.
            context.requestReload(reason: fromServer ? "new content from the server" : "new content from a USB stick") { [unowned self] loaded in
                let now = self.context.now
                if loaded {
                    let n = session.config.items.count
                    behavior.sceneCards.showNotice(until: now + seconds) { l in
                        fromServer ? MessageCard(tone: .notice, title: KioskStrings.text(.newContent, l), lines: [KioskStrings.itemsToShow(n, l)])
                            : MessageCard(tone: .notice, title: KioskStrings.text(.newContentFromStick, l),
                                          lines: [KioskStrings.itemsToShow(n, l) + " " + KioskStrings.text(.takeStickOut, l)])
                    }
                } else {
                    let problems = behavior.lastReloadProblems.map(\.description)
                    behavior.sceneCards.showNotice(until: now + 2 * seconds) { l in
                        MessageCard(tone: .problem, title: KioskStrings.text(.contentNotShown, l),
                                    lines: problems.isEmpty ? [KioskStrings.text(.journalSaysWhy, l)] : problems,
                                    footer: KioskStrings.text(.showsWhatItShowed, l))
                    }
                }
            }
        case .failed:
            fields.append(("problems", "\(status.problems.count)"))
            // The importer's own message and problems are technical: English, as the journal has them.
            behavior.sceneCards.showNotice(until: now + 2 * seconds) { l in
                MessageCard(tone: .problem, title: KioskStrings.text(fromServer ? .contentNotUsed : .stickNotUsed, l),
                            lines: status.problems.isEmpty ? [status.message] : status.problems, footer: status.message)
            }
        }
        behavior.line(time: now, name: "usb_import", fields: fields)
    }
}
