// Canvas, Texture, Quad, Homography, Backdrop and TextureFilter live in RasterCore (shared with
// the kernel modules); `import Raster` brings them along.
@_exported import RasterCore
