/// Ends a notice card whose time is up (a USB stick's result, shown for `[usb] notice_seconds`).
/// The smallest component: one deadline, one action.
final class NoticeTimeout: KioskComponent {
    private let cards: SceneCards

    init(cards: SceneCards) { self.cards = cards }

    /// When the notice on screen ends by itself.
    var nextDeadline: Double? {
        guard let n = cards.notice, n.isShown else { return nil }
        return n.until
    }

    func deadlineReached(now: Double) { cards.endNotice() }
}
