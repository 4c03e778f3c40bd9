import Cards
import CarouselCore
import KioskConfig
import Raster

/// The carousel's first frame's text — the focused item's title and the language badge — drawn
/// once on another thread and handed to the session (`text`, an `OverlaysDrawnAhead`).
///
/// The first text a process draws costs many times what the next one does: pango, HarfBuzz,
/// FreeType and cairo run their code for the first time (under QEMU's TCG every new block of
/// code is translated before it runs), the font file is opened and its tables read, a shape plan
/// and the glyphs are made and kept in cairo's and pango's caches. `run`'s fonts' thread draws
/// this once the screen is open (`StartupLibraries`) while the main thread makes the components
/// and draws the first frame without it: the session
/// (`CarouselSession.showTextDrawnAhead`) takes the overlays as they come and shows them in the
/// frame after (docs/start-up.md, stops 55 and 56). They are the session's own overlays: drawn
/// with its renderer's style and size from the same configuration, so the screen is the one the
/// session draws itself, the text only coming a frame later when the thread is not done in time.
public struct FirstFrameAhead: Sendable {
    private let overlays: OverlayStyle
    private let frameSize: (width: Int, height: Int)
    private let focusedItem: ItemConfig?
    private let language: String?
    /// Where the overlays go; nil when the first frame has no text (no title shown, one language).
    public let text: OverlaysDrawnAhead?

    /// The first frame of a session made as `KioskApp` makes it (`CarouselSession` with this
    /// configuration, screen size and render scale), focused on the first item.
    public init(config: KioskConfiguration, screenWidth: Int, screenHeight: Int, renderScale: Double = 1) {
        let drawn = CarouselSession.drawnSize(width: screenWidth, height: screenHeight, scale: renderScale)
        let styled = AccessibleLook(config.accessibility).apply(to: config)
        overlays = OverlayStyle(theme: styled.theme.scaled(by: drawn.scale))
        frameSize = (drawn.width, drawn.height)
        focusedItem = config.items.first
        language = config.languages.isMultilingual ? config.languages.shownLanguage : nil
        // The renderer's own rule for a title it shows (`OverlayRenderer.title(for:)`).
        let title = overlays.showTitle ? focusedItem.map(\.title).flatMap { $0.isEmpty ? nil : $0 } : nil
        let renderer = OverlayRenderer(style: overlays, screenWidth: frameSize.width, screenHeight: frameSize.height)
        text = OverlaysDrawnAhead(style: overlays, screenWidth: renderer.screenWidth, screenHeight: renderer.screenHeight,
                                  title: title, badge: language)
    }

    /// Draws the title, then the badge, handing each to `text` as it is drawn, and finishes
    /// `text` (also when there was nothing to draw). Returns what it drew (tests).
    @discardableResult
    public func draw() -> [Texture] {
        guard let text else { return [] }
        defer { text.finish() }
        let renderer = OverlayRenderer(style: overlays, screenWidth: frameSize.width, screenHeight: frameSize.height)
        var drawn: [Texture] = []
        if text.promisedTitle != nil {
            let title = renderer.title(for: focusedItem)
            text.deliver(title: title)
            if let title { drawn.append(title.texture) }
        }
        if let code = text.promisedBadge, let badge = renderer.languageBadge(code) {
            text.deliver(badge: badge)
            drawn.append(badge.texture)
        }
        return drawn
    }
}
