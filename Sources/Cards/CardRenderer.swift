import KioskConfig
import Raster

/// Draws an item's face into a texture of the size it is shown at.
public protocol CardRenderer: Sendable {
    /// Renders `item`'s face at `width × height` pixels (premultiplied ARGB).
    func render(_ item: ItemConfig, width: Int, height: Int) -> Texture
}
