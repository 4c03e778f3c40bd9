/// A point or vector in the plane, in screen pixels unless a doc comment says otherwise.
public struct Point2: Equatable, Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Point2(0, 0)
    public static func + (a: Point2, b: Point2) -> Point2 { Point2(a.x + b.x, a.y + b.y) }
    public static func - (a: Point2, b: Point2) -> Point2 { Point2(a.x - b.x, a.y - b.y) }
    public static func * (a: Point2, s: Double) -> Point2 { Point2(a.x * s, a.y * s) }
    /// Euclidean length of the vector.
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// A size in pixels.
public struct Size2: Equatable, Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
}

/// An integer pixel rectangle, half-open: covers x in [x, x + width), y in [y, y + height).
public struct PixelRect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { isEmpty ? 0 : width * height }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let nx = min(x, o.x), ny = min(y, o.y)
        return PixelRect(x: nx, y: ny, width: max(maxX, o.maxX) - nx, height: max(maxY, o.maxY) - ny)
    }

    /// The overlap of both, or `.empty`.
    /// True when `o` lies entirely inside this rectangle (an empty `o` always does).
    public func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let nx = max(x, o.x), ny = max(y, o.y)
        let mx = min(maxX, o.maxX), my = min(maxY, o.maxY)
        if mx <= nx || my <= ny { return .empty }
        return PixelRect(x: nx, y: ny, width: mx - nx, height: my - ny)
    }

    /// The pixel rectangle that covers the bounding box of `points`, grown by `margin` pixels.
    public static func covering(_ points: [Point2], margin: Int = 1) -> PixelRect {
        guard let first = points.first else { return .empty }
        var lx = first.x, ly = first.y, hx = first.x, hy = first.y
        for p in points.dropFirst() {
            lx = min(lx, p.x); ly = min(ly, p.y); hx = max(hx, p.x); hy = max(hy, p.y)
        }
        guard lx.isFinite, ly.isFinite, hx.isFinite, hy.isFinite else { return .empty }
        let clampLimit = 1.0e7
        let x0 = Int(max(-clampLimit, lx).rounded(.down)) - margin
        let y0 = Int(max(-clampLimit, ly).rounded(.down)) - margin
        let x1 = Int(min(clampLimit, hx).rounded(.up)) + margin
        let y1 = Int(min(clampLimit, hy).rounded(.up)) + margin
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
