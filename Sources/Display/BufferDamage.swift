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
/// Rectangles are merged when their bounding box costs no more pixels than both apart (one
/// inside the other, two places of a card that moved a little). At most `limit` rectangles are
/// kept per buffer; beyond that they collapse into their bounding box, so a long run of small
/// changes never grows memory or copy work without bound.
///
/// This is the one owner of per-buffer damage (as wlroots' `wlr_damage_ring`): every `Output`
/// keeps one for the slots of its backend (`OutputBackend.slotCount`, `acquireSlot` says which is
/// written next), and `bench composite --damage` uses the same type for its simulated buffers.
/// `FrameComposer` (Raster) only reports the damage of each frame relative to the one before.
public struct BufferDamage: Sendable {
    /// For each buffer, the rectangles it lacks.
    public private(set) var pending: [[PixelRect]]
    /// Rectangles kept per buffer before they collapse into their bounding box.
    public let limit: Int

    /// Tracks `buffers` buffers, each starting with nothing pending.
    public init(buffers: Int, limit: Int = 8) {
        pending = Array(repeating: [], count: buffers)
        self.limit = limit
    }

    /// Marks every buffer as needing `whole` (new buffers, unknown content).
    public mutating func invalidateAll(_ whole: PixelRect) {
        for i in pending.indices { pending[i] = whole.isEmpty ? [] : [whole] }
    }

    /// Adds one present's damage to every buffer's history.
    public mutating func record(_ damage: [PixelRect]) {
        for i in pending.indices {
            for r in damage where !r.isEmpty { Self.add(r, to: &pending[i]) }
            if pending[i].count > limit {
                pending[i] = [pending[i].reduce(PixelRect.empty) { $0.union($1) }]
            }
        }
    }

    /// Adds `rect` to `list`, merging it with every rectangle whose bounding box with it costs no
    /// more pixels than the two apart (one inside the other, or much overlap: a card moved a few
    /// pixels), so the copy never grows by merging and overlaps are not copied twice.
    static func add(_ rect: PixelRect, to list: inout [PixelRect]) {
        var r = rect
        var merged = true
        while merged {
            merged = false
            for j in list.indices.reversed() {
                let u = list[j].union(r)
                if u.area <= list[j].area + r.area {
                    r = u
                    list.remove(at: j)
                    merged = true
                }
            }
        }
        list.append(r)
    }

    /// What `buffer` must receive to show the current frame; its history starts over.
    public mutating func take(_ buffer: Int) -> [PixelRect] {
        defer { pending[buffer] = [] }
        return pending[buffer]
    }
}
