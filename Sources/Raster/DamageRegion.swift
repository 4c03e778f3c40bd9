import CarouselCore

/// A set of pixel rectangles that changed: overlapping or touching rectangles are merged into
/// their bounding box, so the set stays small and no pixel is counted (or copied) twice.
public struct DamageRegion: Equatable, Sendable {
    public private(set) var rects: [PixelRect] = []

    public init() {}
    public init(_ rects: [PixelRect]) { for r in rects { add(r) } }

    /// Adds `rect` (empty ones are ignored).
    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        var changed = true
        while changed {
            changed = false
            for i in rects.indices.reversed() where DamageRegion.touches(rects[i], merged) {
                merged = merged.union(rects[i])
                rects.remove(at: i)
                changed = true
            }
        }
        rects.append(merged)
    }

    /// Adds every rectangle of `other`.
    public mutating func formUnion(_ other: DamageRegion) { for r in other.rects { add(r) } }

    /// Keeps only what lies inside `bounds`.
    public func clipped(to bounds: PixelRect) -> DamageRegion {
        DamageRegion(rects.map { $0.intersection(bounds) })
    }

    public var isEmpty: Bool { rects.isEmpty }
    /// Pixels covered (rectangles are disjoint).
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    static func touches(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x <= b.maxX && b.x <= a.maxX && a.y <= b.maxY && b.y <= a.maxY
    }
}
