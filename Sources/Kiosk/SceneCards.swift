import Cards
import CarouselCore
import Foundation
import KioskConfig

/// The message cards shown over or instead of the carousel: the start-up problem card
/// (`message`), a notice for a while (the USB stick's result: `notice`) and the empty face of a
/// configuration without items. The session's owner (`KioskBehavior`) holds it and gives it to
/// the session (`CarouselSession.covering`), which draws `shownMessage` instead of the carousel
/// and lets it take the input a notice swallows first.
public final class SceneCards: SceneCovering {
    private unowned let session: CarouselSession

    /// Shown over the background instead of the carousel while set (a configuration with
    /// problems at start-up); nil: the carousel, or the empty face when it has no items.
    public var message: MessageCard? {
        didSet { if message != oldValue { session.needsFrame = true } }
    }
    /// A card shown over the carousel for a while (the USB stick's result): `NoticeTimeout` ends
    /// it at its deadline, and a touch, key or click ends it at once (that press only ends it).
    public private(set) var notice: Notice?
    /// The notice's card in a given language, when it was shown with one (`showNotice(until:_:)`):
    /// the notice follows the language shown.
    private var noticeCard: ((String) -> MessageCard)?

    /// Covers `session`'s scene (and becomes its `covering`).
    public init(session: CarouselSession) {
        self.session = session
        session.covering = self
    }

    /// Shows `card` until `until` (nil: until `endNotice` or a press).
    public func showNotice(_ card: MessageCard, until: Double?) {
        notice = Notice(card: card, until: until)
        noticeCard = nil
        session.needsFrame = true
    }

    /// Shows `card` in the language shown (`KioskStrings`), and in the next one when it changes,
    /// until `until` (nil: until `endNotice` or a press).
    public func showNotice(until: Double?, _ card: @escaping (_ language: String) -> MessageCard) {
        showNotice(card(language), until: until)
        noticeCard = card
    }

    /// The language shown (the session's configuration is shown in it).
    private var language: String { session.config.languages.shownLanguage }

    /// Ends the notice (its deadline passed, or what it said is over).
    public func endNotice() {
        guard let n = notice, n.isShown else { return }
        notice = n.holdsInput ? Notice(ended: n) : nil
        session.needsFrame = true
    }

    /// Whether `event` is the notice's (a press that ends it, or a touch that did): the session
    /// gives it nothing else then.
    func swallows(_ event: InputEvent) -> Bool {
        guard var n = notice, n.swallows(event) else { return false }
        notice = n.isShown || n.holdsInput ? n : nil
        if !n.isShown { session.needsFrame = true }
        return true
    }

    /// The message on screen instead of the carousel: `message`, else the notice while it is
    /// shown, else the empty face when the configuration has no items ("No items yet — add
    /// pictures to …").
    public var shownMessage: MessageCard? {
        if let message { return message }
        if let notice, notice.isShown { return noticeCard?(language) ?? notice.card }
        let config = session.config
        guard config.items.isEmpty else { return nil }
        let file = config.file.isEmpty || config.file.hasPrefix("/") ? config.file
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(config.file)
        return MessageCard.emptyCarousel(folder: config.itemsDirectory.directory, configFile: PathResolver.standardized(file),
                                         language: language)
    }
}
