/// Textures of one size used again for new pictures once nobody else holds them: a playing
/// clip's scaled frames and its card faces, so no texture is allocated per frame once it plays.
///
/// A texture is handed out again only when the pool holds the last reference to it (the frame
/// left the player's queue and the screen, and nothing else kept it); it is then rewritten in
/// place, after `Texture.willRewritePixels()`, so its `generation` tells the compositor it is
/// another picture. A texture that is still held (the frame on screen, the frame a stopped card
/// keeps) is never touched: a new one is made instead, and kept while the pool is below
/// `capacity`.
///
/// Used by one thread at a time (a player's thread); the textures it hands out may be held and
/// let go by any thread.
public final class TexturePool {
    public let width: Int, height: Int
    /// Textures kept for reuse at most; more are made when all are held, and not kept.
    public let capacity: Int
    private var textures: [Texture] = []
    /// Textures made so far (those kept and those not).
    public private(set) var allocations = 0

    public init(width: Int, height: Int, capacity: Int) {
        precondition(width > 0 && height > 0, "pooled textures must have pixels")
        self.width = width
        self.height = height
        self.capacity = max(1, capacity)
    }

    /// Whether `texture` is one the pool keeps.
    public func holds(_ texture: Texture) -> Bool { textures.contains { $0 === texture } }

    /// A texture of the pool's size that nobody else holds, to be filled with a new picture:
    /// one used before (`willRewritePixels()` called, its old pixels still there), else a new
    /// transparent one. `isNew` tells which.
    public func take() -> (texture: Texture, isNew: Bool) {
        for i in textures.indices where isKnownUniquelyReferenced(&textures[i]) {
            textures[i].willRewritePixels()
            return (textures[i], false)
        }
        let texture = Texture(width: width, height: height)
        allocations += 1
        if textures.count < capacity { textures.append(texture) }
        return (texture, true)
    }
}
