/// Ends a notice card whose time is up (a USB stick's result, shown for `[usb] notice_seconds`).
/// The smallest component: one deadline, one action.
final class NoticeTimeout: KioskComponent {
    private let session: CarouselSession

    init(session: CarouselSession) { self.session = session }

    /// When the notice on screen ends by itself.
    var nextDeadline: Double? {
        guard let n = session.notice, n.isShown else { return nil }
        return n.until
    }

    func deadlineReached(now: Double) { session.endNotice() }
}
