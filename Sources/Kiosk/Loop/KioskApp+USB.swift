import Cards
import Foundation
import JSON
import KioskConfig

/// Content from a USB stick (docs/usb.md): `usb-import` (run as root by udev's
/// `kiosk-carousel-usb@.service`) writes its progress and result to `[usb] content/status.json`;
/// the kiosk watches that file, shows a card for it, and reloads when new content is current.
extension KioskApp {
    /// The status file watched; nil when `[usb] import` is off.
    var usbStatusPath: String? {
        let usb = behavior.loadedConfig.usb
        return usb.importEnabled ? ImportStatus.path(in: (usb.content as NSString).standardizingPath) : nil
    }

    /// The status file changed: show what it says; new content is loaded at once.
    func usbStatusChanged() {
        guard let path = usbStatusPath, let status = ImportStatus.read(from: path) else { return }
        // A status older than this kiosk (left from an import long done) is not news.
        guard status.time >= startWallTime - 1, status != lastUSBStatus else { return }
        lastUSBStatus = status
        let seconds = behavior.loadedConfig.usb.noticeSeconds
        var fields: [(String, String)] = [("state", JSONString.quoted(status.state.rawValue)), ("device", JSONString.quoted(status.device))]
        switch status.state {
        case .checking, .copying:
            if status.state == .checking || session.notice == nil {
                session.showNotice(MessageCard(tone: .notice, title: "Reading the USB stick…",
                                               lines: ["Please leave it in until the screen says it is done."]),
                                   until: now + 600)
            }
        case .done:
            fields.append(("items", "\(status.items ?? 0)"))
            // Read off the loop: the card says the outcome once it is known.
            requestReload(reason: "new content from a USB stick") { [unowned self] loaded in
                if loaded {
                    let n = self.session.config.items.count
                    self.session.showNotice(MessageCard(tone: .notice, title: "New content from the USB stick",
                                                        lines: ["\(n) item\(n == 1 ? "" : "s") to show. You can take the stick out."]),
                                            until: self.now + seconds)
                } else {
                    let problems = self.behavior.lastReloadProblems.map(\.description)
                    self.session.showNotice(MessageCard(tone: .problem, title: "The new content could not be shown",
                                                        lines: problems.isEmpty ? ["The journal says why."] : problems,
                                                        footer: "The kiosk shows what it showed before."), until: self.now + 2 * seconds)
                }
            }
        case .failed:
            fields.append(("problems", "\(status.problems.count)"))
            session.showNotice(MessageCard(tone: .problem, title: "This USB stick was not used",
                                           lines: status.problems.isEmpty ? [status.message] : status.problems,
                                           footer: status.message), until: now + 2 * seconds)
        }
        behavior.line(time: now, name: "usb_import", fields: fields)
    }

    /// When the notice on screen ends by itself.
    var nextNoticeEnd: Double? {
        guard let n = session.notice, n.isShown else { return nil }
        return n.until
    }

    /// The service timer fired: end a notice whose time is up.
    func endNoticeIfDue(now t: Double) {
        if let due = nextNoticeEnd, due <= t + 0.0005 { session.endNotice() }
    }
}
