import CarouselCore

/// Software rotation of the picture on the panel, in degrees clockwise (as the Linux console's
/// `fbcon=rotate:1` and Raspberry Pi's `display_rotate=1` mean 90°): with `.clockwise90` the
/// scene's top edge is drawn along the panel's right edge, so a panel mounted a quarter turn
/// counter-clockwise shows it upright.
///
/// The scene is laid out in the *logical* size (width and height swapped for 90°/270°); the
/// display copies it rotated into the *physical* buffer. Pixel mapping, with the logical size
/// `LW × LH`:
///
/// | rotation | physical pixel of logical (x, y) | physical size |
/// |---|---|---|
/// | 0   | (x, y)                 | LW × LH |
/// | 90  | (LH − 1 − y, x)        | LH × LW |
/// | 180 | (LW − 1 − x, LH − 1 − y) | LW × LH |
/// | 270 | (y, LW − 1 − x)        | LH × LW |
///
/// The input layer maps touches the other way with `logicalPoint(physicalX:physicalY:...)`.
public enum DisplayRotation: Int, CaseIterable, Sendable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// The rotation for `degrees` (0, 90, 180, 270), or nil.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// True for 90° and 270°: width and height swap between logical and physical.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size the scene is laid out in, for a panel of `physical` size.
    public func logicalSize(physicalWidth: Int, physicalHeight: Int) -> (width: Int, height: Int) {
        swapsAxes ? (physicalHeight, physicalWidth) : (physicalWidth, physicalHeight)
    }

    /// Where a rectangle of the logical frame (`logicalWidth × logicalHeight`) lands in the buffer.
    public func physicalRect(_ r: PixelRect, logicalWidth lw: Int, logicalHeight lh: Int) -> PixelRect {
        switch self {
        case .none: return r
        case .clockwise90: return PixelRect(x: lh - r.maxY, y: r.x, width: r.height, height: r.width)
        case .upsideDown: return PixelRect(x: lw - r.maxX, y: lh - r.maxY, width: r.width, height: r.height)
        case .clockwise270: return PixelRect(x: r.y, y: lw - r.maxX, width: r.height, height: r.width)
        }
    }

    /// The logical (scene) point under a physical panel point (continuous coordinates, so the
    /// panel's edges map to the scene's edges): what a touch at `physicalX, physicalY` means.
    public func logicalPoint(physicalX px: Double, physicalY py: Double,
                             logicalWidth lw: Double, logicalHeight lh: Double) -> Point2 {
        switch self {
        case .none: return Point2(px, py)
        case .clockwise90: return Point2(py, lh - px)
        case .upsideDown: return Point2(lw - px, lh - py)
        case .clockwise270: return Point2(lw - py, px)
        }
    }
}
