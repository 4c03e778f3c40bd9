import Cards
import CarouselCore
import KioskConfig
import Raster

/// What the carousel's first frame draws with cairo and pango — the loading face of the first
/// item's card, the focused item's title, the page indicator, the dial's ring and the language
/// badge — drawn once ahead of it, on another thread, and thrown away.
///
/// The first text a process draws costs many times what the next one does: pango, HarfBuzz,
/// FreeType and cairo run their code for the first time (under QEMU's TCG every new block of
/// code is translated before it runs), the font file is opened and its tables read, a shape plan
/// and the glyphs are made and kept in cairo's and pango's caches. `run`'s fonts' thread draws
/// this while the main thread reads the config again with its checks and makes the components
/// (`StartupLibraries`), so the main thread's first frame finds that work done
/// (docs/start-up.md, stop 55). Nothing drawn here is shown: the session draws its own textures
/// from the same styles, so the screen is the same with or without it.
public struct FirstFrameAhead: Sendable {
    private let loadingFaceStyle: CardStyle?
    private let cardSize: (width: Int, height: Int)
    private let overlays: OverlayStyle
    private let frameSize: (width: Int, height: Int)
    private let focusedItem: ItemConfig?
    private let itemCount: Int
    private let dial: DialOptions?
    private let language: String?

    /// The first frame of a session made as `KioskApp` makes it (`CarouselSession` with this
    /// configuration, screen size and render scale), focused on the first item.
    public init(config: KioskConfiguration, screenWidth: Int, screenHeight: Int, renderScale: Double = 1) {
        let drawn = CarouselSession.drawnSize(width: screenWidth, height: screenHeight, scale: renderScale)
        let styled = AccessibleLook(config.accessibility).apply(to: config)
        let s = drawn.scale
        loadingFaceStyle = styled.items.first.map { $0.scaled(by: s).style }
        cardSize = CarouselSession.cardSize(config, scale: s)
        overlays = OverlayStyle(theme: styled.theme.scaled(by: s))
        frameSize = (drawn.width, drawn.height)
        focusedItem = config.items.first
        itemCount = styled.items.count
        dial = config.gestures.dial?.scaled(by: s)
        language = config.languages.isMultilingual ? config.languages.shownLanguage : nil
    }

    /// Draws it all once and returns the textures for the caller to drop: the title first (the
    /// session's first frame waits for the lock the text takes, `FontLock`, while this draws it;
    /// its loading face and dots, which take no lock, it draws meanwhile), then the language
    /// badge, the dial's ring, the page indicator and the loading face, each when the first frame
    /// has it.
    @discardableResult
    public func draw() -> [Texture] {
        let renderer = OverlayRenderer(style: overlays, screenWidth: frameSize.width, screenHeight: frameSize.height)
        let overlays = [renderer.title(for: focusedItem), language.map { renderer.languageBadge($0) },
                        renderer.dialRing(dial), renderer.pageIndicator(count: itemCount, current: 0)]
        var drawn = overlays.compactMap { $0?.texture }
        if let style = loadingFaceStyle {
            drawn.append(CardFaceRenderer().loadingFace(style: style, width: cardSize.width, height: cardSize.height))
        }
        return drawn
    }
}
