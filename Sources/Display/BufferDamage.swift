import CarouselCore

/// The damage history of a set of scan-out buffers.
///
/// Each `present(frame, damage:)` brings the *whole* cached frame up to date, but a buffer last
/// written two or three presents ago misses every change since then. So every buffer keeps the
/// rectangles changed since *it* was last written: `record` adds a present's damage to every
/// buffer, `take` returns (and forgets) what one buffer must receive now. A buffer that is new, or
/// whose content is unknown (after a mode set, or when someone else drew on the screen), is
/// marked with the whole frame.
///
/// At most `limit` rectangles are kept per buffer; beyond that they collapse into their bounding
/// box, so a long run of small changes never grows memory or copy work without bound.
struct BufferDamage {
    private(set) var pending: [[PixelRect]]
    let limit: Int

    init(buffers: Int, limit: Int = 8) {
        pending = Array(repeating: [], count: buffers)
        self.limit = limit
    }

    /// Marks every buffer as needing `whole` (new buffers, unknown content).
    mutating func invalidateAll(_ whole: PixelRect) {
        for i in pending.indices { pending[i] = whole.isEmpty ? [] : [whole] }
    }

    /// Adds one present's damage to every buffer's history.
    mutating func record(_ damage: [PixelRect]) {
        let rects = damage.filter { !$0.isEmpty }
        guard !rects.isEmpty else { return }
        for i in pending.indices {
            for r in rects where !pending[i].contains(where: { $0.contains(r) }) {
                pending[i].removeAll { r.contains($0) }
                pending[i].append(r)
            }
            if pending[i].count > limit {
                pending[i] = [pending[i].reduce(PixelRect.empty) { $0.union($1) }]
            }
        }
    }

    /// What `buffer` must receive to show the current frame; its history starts over.
    mutating func take(_ buffer: Int) -> [PixelRect] {
        defer { pending[buffer] = [] }
        return pending[buffer]
    }
}

extension PixelRect {
    /// True when `o` lies entirely inside this rectangle (an empty `o` always does).
    func contains(_ o: PixelRect) -> Bool {
        o.isEmpty || (o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY)
    }
}
