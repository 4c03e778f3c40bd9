/// Texture sampling for minified quads.
public enum TextureFilter: String, Sendable, CaseIterable {
    /// Bilinear from the full-size texture only.
    case bilinear
    /// Bilinear from the mip level that matches the on-screen footprint (when the texture has
    /// mip levels; see `Texture.buildMipLevels()`).
    case mipmap
}
