/// How an image fills its card: `cover` fills the whole card and crops what overflows,
/// `contain` shows the whole image and leaves bands of background.
public enum ImageFit: String, CaseIterable, Sendable {
    case cover, contain

    /// The fit named in a card style (`cover` unless it says `contain`).
    public init(styleName: String) { self = ImageFit(rawValue: styleName.lowercased()) ?? .cover }

    /// Where an image of `imageWidth × imageHeight` lands in a box of `boxWidth × boxHeight`:
    /// centred, scaled uniformly by `scale`.
    public func place(imageWidth: Double, imageHeight: Double, boxWidth: Double, boxHeight: Double)
        -> (x: Double, y: Double, width: Double, height: Double, scale: Double) {
        guard imageWidth > 0, imageHeight > 0 else { return (0, 0, boxWidth, boxHeight, 1) }
        let sx = boxWidth / imageWidth, sy = boxHeight / imageHeight
        let s = self == .cover ? max(sx, sy) : min(sx, sy)
        let w = imageWidth * s, h = imageHeight * s
        return ((boxWidth - w) / 2, (boxHeight - h) / 2, w, h, s)
    }

    /// The scale at which an image of that size is drawn into the box.
    public func scale(imageWidth: Double, imageHeight: Double, boxWidth: Double, boxHeight: Double) -> Double {
        place(imageWidth: imageWidth, imageHeight: imageHeight, boxWidth: boxWidth, boxHeight: boxHeight).scale
    }
}
