// FFmpeg's headers (Debian: libavformat-dev, libavcodec-dev, libswscale-dev, libswresample-dev,
// libavutil-dev), in one module, from the default include path (/usr/include/<triplet>, which all
// five share). Nothing is linked: the FFmpeg functions called here and from Swift are defined by
// CFFmpegLoader, which opens the libraries at the first use (docs/video.md, "FFmpeg loaded on
// demand").
//
// The static inline functions below stand in for what Swift cannot import: function-like
// macros (AVERROR, av_err2str) and fields whose name changed between FFmpeg 5.1 (Debian 12)
// and 7.x (Debian 13, the arm64 release sysroot). Plus VIDIOC_QUERYCAP, a variadic ioctl.
#ifndef KIOSK_CFFMPEG_SHIM_H
#define KIOSK_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/log.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

/// AVERROR(EAGAIN): "output not available in this state, send more input".
static inline int kc_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR(e) for any errno value.
static inline int kc_averror(int e) { return AVERROR(e); }
static inline int kc_averror_eof(void) { return AVERROR_EOF; }
static inline int kc_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int kc_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int kc_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int kc_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t kc_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int kc_avseek_size(void) { return AVSEEK_SIZE; }
static inline int kc_avseek_force(void) { return AVSEEK_FORCE; }

/// av_err2str without the compound literal: the message for an AVERROR code, into `buf`.
static inline const char *kc_err2str(int errnum, char *buf, size_t size) {
    av_strerror(errnum, buf, size);
    return buf;
}

/// The frame's duration in its time base (0 when unknown): `duration` from FFmpeg 6
/// (libavutil 58.2), `pkt_duration` before it (removed in 7).
static inline int64_t kc_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 2, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

/// True when the pixel format is a hardware surface (DRM_PRIME, VAAPI…) rather than memory.
static inline int kc_pix_fmt_is_hardware(int format) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)format);
    return d && (d->flags & AV_PIX_FMT_FLAG_HWACCEL);
}
/// True when the pixel format carries alpha.
static inline int kc_pix_fmt_has_alpha(int format) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)format);
    return d && (d->flags & AV_PIX_FMT_FLAG_ALPHA);
}

/// A nested open (hls, concat, dash, a mov "dref" to another file) refused: a kiosk plays the
/// file it was given and nothing that file points at.
static inline int kc_refuse_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url,
                                    int flags, AVDictionary **options) {
    (void)s; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}
static inline void kc_refuse_nested_io(AVFormatContext *ctx) { ctx->io_open = kc_refuse_io_open; }

/// libav* logs only errors (the module reports what matters through its own errors).
static inline void kc_quiet_ffmpeg_log(void) { av_log_set_level(AV_LOG_QUIET); }

/// VIDIOC_QUERYCAP on `fd`: 0 and the V4L2 capabilities the device node offers, or -1 (errno).
static inline int kc_v4l2_querycap(int fd, unsigned *device_caps, char *card, size_t card_size) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) return -1;
    *device_caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    snprintf(card, card_size, "%s", (const char *)cap.card);
    return 0;
}
static inline unsigned kc_v4l2_cap_m2m(void) { return V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE; }
/// VIDIOC_ENUM_FMT on the OUTPUT (bitstream) queue: the `index`th format's fourcc and whether it
/// is compressed; -1 past the last. A decoder takes compressed formats in; an encoder puts them out.
static inline int kc_v4l2_output_format(int fd, int mplane, unsigned index, unsigned *fourcc, int *compressed) {
    struct v4l2_fmtdesc d;
    memset(&d, 0, sizeof d);
    d.index = index;
    d.type = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (ioctl(fd, VIDIOC_ENUM_FMT, &d) != 0) return -1;
    *fourcc = d.pixelformat;
    *compressed = (d.flags & V4L2_FMT_FLAG_COMPRESSED) != 0;
    return 0;
}
/// libswscale's context as an untyped handle: FFmpeg 7.1 made `SwsContext` a complete struct and
/// its flags an enum, so Swift would see other types there than with 5.1 (an opaque pointer, an
/// int). Swift only holds the handle; these functions are the only ones that look inside.
/// `sws_getCachedContext` to BGRA at `dw × dh`, bilinear (reuses `sws` when nothing changed).
static inline void *kc_sws_get_bgra(void *sws, int sw, int sh, int sformat, int dw, int dh) {
    return sws_getCachedContext((struct SwsContext *)sws, sw, sh, (enum AVPixelFormat)sformat, dw, dh,
                                AV_PIX_FMT_BGRA, SWS_BILINEAR, NULL, NULL, NULL);
}
static inline void kc_sws_free(void *sws) { sws_freeContext((struct SwsContext *)sws); }
/// The frame's YUV matrix as an AVCOL_SPC_* value (libswscale's SWS_CS_* index): its own, or
/// BT.709 when the stream does not say and the picture is 720 lines or more, else BT.601.
static inline int kc_frame_matrix(const AVFrame *frame) {
    int cs = frame->colorspace;
    if (cs == AVCOL_SPC_UNSPECIFIED || cs == AVCOL_SPC_RGB || cs == AVCOL_SPC_RESERVED)
        cs = frame->height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_BT470BG;
    return cs;
}
/// 1 when the matrix is BT.709, 0 when BT.601 (BT.470BG, SMPTE 170M), -1 for any other.
static inline int kc_matrix_is_bt709(int matrix) {
    return matrix == AVCOL_SPC_BT709 ? 1 : (matrix == AVCOL_SPC_BT470BG || matrix == AVCOL_SPC_SMPTE170M ? 0 : -1);
}
/// 1 when the frame's YUV is full range (JPEG range, or a yuvj format), else 0 (limited).
static inline int kc_frame_full_range(const AVFrame *frame) {
    int fmt = frame->format;
    return frame->color_range == AVCOL_RANGE_JPEG || fmt == AV_PIX_FMT_YUVJ420P || fmt == AV_PIX_FMT_YUVJ422P
        || fmt == AV_PIX_FMT_YUVJ444P || fmt == AV_PIX_FMT_YUVJ440P;
}
/// 1 for planar YUV 4:2:0 at 8 bits (yuv420p, yuvj420p), 2 for NV12, 0 for any other format:
/// what the fused converter (CVideoConvert) reads.
static inline int kc_pix_fmt_yuv420_layout(int format) {
    if (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P) return 1;
    return format == AV_PIX_FMT_NV12 ? 2 : 0;
}
/// Tells `sws` what the frame's YUV means: its matrix (`kc_frame_matrix`) and its range
/// (`kc_frame_full_range`). The output is full-range RGB. Ignored for RGB sources.
static inline void kc_sws_set_colorspace(void *sws, const AVFrame *frame) {
    sws_setColorspaceDetails((struct SwsContext *)sws, sws_getCoefficients(kc_frame_matrix(frame)), kc_frame_full_range(frame),
                             sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
}
/// log2 of the format's horizontal chroma subsampling (0 for 4:4:4 and RGB, 1 for 4:2:0 and NV12),
/// or -1 when its planes cannot be cropped by moving their pointers by whole pixels (bitstream,
/// palette and hardware formats).
static inline int kc_pix_fmt_column_crop_shift(int format) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)format);
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL))) return -1;
    return d->log2_chroma_w;
}
/// sws_scale of `frame`'s columns from `x` on (as many as `sws` was made for; x a multiple of
/// 1 << kc_pix_fmt_column_crop_shift, 0 for the whole frame) into one packed plane (BGRA: `stride`
/// bytes a row). Each plane's pointer is moved right by x pixels (x >> the chroma shift in
/// chroma planes, times the component's step).
static inline int kc_sws_scale_columns_into(void *sws, const AVFrame *frame, int x, uint8_t *dst, int stride) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    const uint8_t *planes[4] = { frame->data[0], frame->data[1], frame->data[2], frame->data[3] };
    if (x > 0 && d) {
        for (int c = 0; c < d->nb_components; c++) {
            int shift = (c == 1 || c == 2) ? d->log2_chroma_w : 0;
            planes[d->comp[c].plane] = frame->data[d->comp[c].plane] + (x >> shift) * d->comp[c].step;
        }
    }
    uint8_t *out[4] = { dst, NULL, NULL, NULL };
    int strides[4] = { stride, 0, 0, 0 };
    return sws_scale((struct SwsContext *)sws, planes, frame->linesize, 0, frame->height, out, strides);
}
static inline unsigned kc_v4l2_cap_m2m_mplane(void) { return V4L2_CAP_VIDEO_M2M_MPLANE; }

/// libswresample's context as an untyped handle (as libswscale's above): a resampler from the
/// audio decoder's format, rate and channel layout to interleaved signed 16-bit stereo at
/// `out_rate` (a mono clip on both channels, 5.1 downmixed); NULL when it cannot be made.
/// swr_alloc_set_opts2 and AVChannelLayout exist from FFmpeg 5.1 (Debian 12) on.
static inline void *kc_swr_to_s16_stereo(const AVCodecContext *c, int out_rate) {
    SwrContext *swr = NULL;
    AVChannelLayout out = AV_CHANNEL_LAYOUT_STEREO;
    AVChannelLayout in;
    if (c->ch_layout.nb_channels > 0 && c->ch_layout.order != AV_CHANNEL_ORDER_UNSPEC) {
        if (av_channel_layout_copy(&in, &c->ch_layout) < 0) return NULL;
    } else {
        av_channel_layout_default(&in, c->ch_layout.nb_channels > 0 ? c->ch_layout.nb_channels : 2);
    }
    int rc = swr_alloc_set_opts2(&swr, &out, AV_SAMPLE_FMT_S16, out_rate, &in, c->sample_fmt, c->sample_rate, 0, NULL);
    av_channel_layout_uninit(&in);
    if (rc < 0 || swr_init(swr) < 0) { swr_free(&swr); return NULL; }
    return swr;
}
static inline void kc_swr_free(void *swr) { SwrContext *s = (SwrContext *)swr; swr_free(&s); }
/// Frames the resampler may give for `in_frames` more input (an upper bound).
static inline int kc_swr_out_frames(void *swr, int in_frames) { return swr_get_out_samples((SwrContext *)swr, in_frames); }
/// Converts `frame` (NULL: flushes what the resampler holds) into `out`, at most `capacity`
/// stereo frames; the frames written, or a negative AVERROR.
static inline int kc_swr_convert_frame(void *swr, const AVFrame *frame, int16_t *out, int capacity) {
    uint8_t *o[1] = { (uint8_t *)out };
    return swr_convert((SwrContext *)swr, o, capacity, frame ? (const uint8_t **)frame->extended_data : NULL,
                       frame ? frame->nb_samples : 0);
}
#endif
