import Raster
import Video

/// The pictures of a video item: its poster frame (the clip's first frame, decoded at the size the
/// card draws it, on a card worker) and the size a playing clip is decoded at for a card.
public enum VideoStill {
    /// The size a clip whose frames show at `displayWidth × displayHeight` is decoded at to be
    /// drawn with `fit` into a `boxWidth × boxHeight` card: the drawn size itself (so cairo draws
    /// it 1:1), never larger than the clip (a small clip is scaled up by cairo, not the decoder).
    ///
    /// A clip scaled down for a card of even width is decoded an even number of columns wide (the
    /// nearer even width: 854×480 on a 480×360 card is 640×360, not 641×360). libswscale runs its
    /// SIMD paths only for an even output width (an odd one makes it interpolate chroma at full
    /// width in C: 3.2 ms instead of 0.43 ms for that frame here), and an even picture centred on an
    /// even card starts on a whole pixel, so cairo copies it instead of blending each pair of
    /// columns at a half-pixel offset.
    public static func decodeSize(displayWidth: Int, displayHeight: Int, fit: ImageFit,
                                  boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        let p = fit.place(imageWidth: Double(displayWidth), imageHeight: Double(displayHeight),
                          boxWidth: Double(boxWidth), boxHeight: Double(boxHeight))
        let s = min(1, p.scale)
        let exactWidth = Double(displayWidth) * s
        var width = max(1, Int(exactWidth.rounded()))
        if s < 1, boxWidth % 2 == 0, width % 2 == 1 { width = max(2, 2 * Int((exactWidth / 2).rounded())) }
        return (width, max(1, Int((Double(displayHeight) * s).rounded())))
    }

    /// The clip's first frame for a `boxWidth × boxHeight` card drawn with `fit`. A file FFmpeg
    /// cannot read, a codec without a decoder or a clip with no frame throws a `CardFailure`
    /// carrying the `VideoError` (the file, its kind and errno) until it is printed.
    static func poster(path: String, fit: ImageFit, boxWidth: Int, boxHeight: Int, limits: ImageLimits) throws -> Texture {
        do {
            var videoLimits = VideoLimits()
            videoLimits.maxPixels = min(videoLimits.maxPixels, limits.maxPixels)
            let info = try VideoProbe.probe(path: path, limits: videoLimits)
            let size = decodeSize(displayWidth: info.displayWidth, displayHeight: info.displayHeight, fit: fit,
                                  boxWidth: boxWidth, boxHeight: boxHeight)
            return try VideoPoster.firstFrame(path: path, outputWidth: size.width, outputHeight: size.height,
                                              limits: videoLimits).texture
        } catch let e as VideoError {
            throw CardFailure(video: e)
        }
    }
}
