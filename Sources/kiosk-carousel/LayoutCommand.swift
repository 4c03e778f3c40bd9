import ArgumentParser
import CarouselCore
import Foundation
import KioskConfig

/// `layout --config FILE --scroll-offset X [--size WxH]`: one JSON object with every item that
/// would be drawn at that scroll offset, back to front (the contract in docs/layouts.md).
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "layout",
        abstract: "Print the layout of every drawn item as JSON.",
        usage: "kiosk-carousel layout --scroll-offset OFFSET [options]",
        discussion: """
        Prints one line of JSON (shown here on two):

          {"view":[w,h],"items":[{"index":i,"offset":o,"transform":[m11,…,m44],
            "corners":[[x,y]×4],"alpha":a,"visible":true}]}

        The items are those that would be drawn, back to front; transform is the item's 4×4 \
        matrix row by row in CATransform3D order (perspective and viewpoint included); corners \
        are the screen positions of the card's top-left, top-right, bottom-right and \
        bottom-left corners.
        """)

    @OptionGroup var config: ConfigOption
    @Option(name: .customLong("scroll-offset"), help: ArgumentHelp("The scroll offset in item units.", valueName: "offset")) var scrollOffset: Double
    @Option(help: "View size as WIDTHxHEIGHT (default: the config's [display] headless_size, 1280x720 unless set).", transform: PixelSize.init(parsing:))
    var size: PixelSize?

    func validate() throws {
        guard scrollOffset.isFinite else { throw ValidationError("--scroll-offset must be a finite number") }
    }

    func run() throws {
        let cfg = try config.load()
        let s = size ?? PixelSize(headlessSizeOf: cfg)
        let view = Size2(Double(s.width), Double(s.height))
        let engine = CarouselEngine(options: cfg.carousel, itemCount: cfg.items.count, viewSize: view)
        engine.setScrollOffset(scrollOffset, now: 0)
        print(Self.json(view: view, poses: engine.layout(viewSize: view)))
    }

    /// The JSON text of a layout dump.
    static func json(view: Size2, poses: [ItemPose]) -> String {
        var s = "{\"view\":[\(number(view.width)),\(number(view.height))],\"items\":["
        for (i, p) in poses.enumerated() {
            if i > 0 { s += "," }
            s += "{\"index\":\(p.index),\"offset\":\(number(p.offset)),\"transform\":["
            s += p.transform.entries.map(number).joined(separator: ",")
            s += "],\"corners\":["
            s += p.corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",")
            s += "],\"alpha\":\(number(p.alpha)),\"visible\":true"
            s += p.isPlaceholder ? ",\"placeholder\":true}" : "}"
        }
        return s + "]}"
    }

    /// A JSON number: shortest round-trip form, integers without a fraction.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
