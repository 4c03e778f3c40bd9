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
        return config.takesImportedContent ? ImportStatus.path(in: (config.usb.content as NSString).standardizingPath) : nil
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
        case .checking, .copying:
            if status.state == .checking || behavior.sceneCards.notice == nil {
                behavior.sceneCards.showNotice(fromServer ? MessageCard(tone: .notice, title: "New content is being checked…", lines: [])
                                               : MessageCard(tone: .notice, title: "Reading the USB stick…",
                                                             lines: ["Please leave it in until the screen says it is done."]),
                                   until: now + 600)
            }
        case .done:
            fields.append(("items", "\(status.items ?? 0)"))
            // Read off the loop: the card says the outcome once it is known.
            context.requestReload(reason: fromServer ? "new content from the server" : "new content from a USB stick") { [unowned self] loaded in
                let now = self.context.now
                if loaded {
                    let n = session.config.items.count
                    behavior.sceneCards.showNotice(fromServer
                                                   ? MessageCard(tone: .notice, title: "New content", lines: ["\(n) item\(n == 1 ? "" : "s") to show."])
                                                   : MessageCard(tone: .notice, title: "New content from the USB stick",
                                                                 lines: ["\(n) item\(n == 1 ? "" : "s") to show. You can take the stick out."]),
                                       until: now + seconds)
                } else {
                    let problems = behavior.lastReloadProblems.map(\.description)
                    behavior.sceneCards.showNotice(MessageCard(tone: .problem, title: "The new content could not be shown",
                                                   lines: problems.isEmpty ? ["The journal says why."] : problems,
                                                   footer: "The kiosk shows what it showed before."), until: now + 2 * seconds)
                }
            }
        case .failed:
            fields.append(("problems", "\(status.problems.count)"))
            behavior.sceneCards.showNotice(MessageCard(tone: .problem, title: fromServer ? "The new content was not used" : "This USB stick was not used",
                                           lines: status.problems.isEmpty ? [status.message] : status.problems,
                                           footer: status.message), until: now + 2 * seconds)
        }
        behavior.line(time: now, name: "usb_import", fields: fields)
    }
}
