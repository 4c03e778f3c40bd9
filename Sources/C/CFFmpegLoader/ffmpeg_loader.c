// FFmpeg's libraries opened on demand (include/ffmpeg_loader.h; the loading itself is
// CLibraryLoader's). Each FFmpeg function the program calls is defined here with the prototype of
// the headers it is built with — the compiler checks every definition against the header's
// declaration — and jumps to the library's own through a pointer that kc_ffmpeg_load fills. A
// call before the load loads first; a call that cannot be served (the libraries are not
// installed) ends the program with the loader's words: the callers (Sources/Video) load first and
// turn a failure into a VideoError, so that point is never reached by a kiosk.
#include "ffmpeg_loader.h"

#include <pthread.h>

#include "library_loader_functions.h"

// FFmpeg's declarations and our definitions of them hidden: the program's own, never exported.
#pragma GCC visibility push(hidden)
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>


#define KC_STR2(x) #x
#define KC_STR(x) KC_STR2(x)

enum { AVUTIL, SWRESAMPLE, SWSCALE, AVCODEC, AVFORMAT, LIBRARIES };
static const char *const sonames[LIBRARIES] = {
    "libavutil.so." KC_STR(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." KC_STR(LIBSWRESAMPLE_VERSION_MAJOR),
    "libswscale.so." KC_STR(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." KC_STR(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." KC_STR(LIBAVFORMAT_VERSION_MAJOR),
};

// The prototypes that changed between the FFmpeg versions the program is built with (5.1 in
// Debian 12, 7.1 in Debian 13, 8 in sid): const added in FFmpeg 7 (libavformat 61,
// libswresample 5).
#if LIBAVFORMAT_VERSION_MAJOR >= 61
#define KC_AVIO_WRITE_BUF const uint8_t *
#else
#define KC_AVIO_WRITE_BUF uint8_t *
#endif
#if LIBSWRESAMPLE_VERSION_MAJOR >= 5
#define KC_SWR_OUT uint8_t *const *
#define KC_SWR_IN const uint8_t *const *
#define KC_SWR_LAYOUT const AVChannelLayout *
#else
#define KC_SWR_OUT uint8_t **
#define KC_SWR_IN const uint8_t **
#define KC_SWR_LAYOUT AVChannelLayout *
#endif

// Every function: its library, return type, name, parameters and the arguments passed on.
// F: returns a value; V: returns nothing.
#define KC_FFMPEG_FUNCTIONS(F, V) \
    F(AVUTIL, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    V(AVUTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    V(AVUTIL, av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout)) \
    F(AVUTIL, AVFrame *, av_frame_alloc, (void), ()) \
    V(AVUTIL, av_frame_free, (AVFrame **frame), (frame)) \
    V(AVUTIL, av_frame_unref, (AVFrame *frame), (frame)) \
    V(AVUTIL, av_free, (void *ptr), (ptr)) \
    F(AVUTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    F(AVUTIL, int, av_hwframe_transfer_data, (AVFrame *dst, const AVFrame *src, int flags), (dst, src, flags)) \
    V(AVUTIL, av_log_set_level, (int level), (level)) \
    F(AVUTIL, void *, av_malloc, (size_t size), (size)) \
    F(AVUTIL, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    F(AVUTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    F(SWRESAMPLE, int, swr_alloc_set_opts2, (struct SwrContext **ps, KC_SWR_LAYOUT out_ch_layout, \
        enum AVSampleFormat out_sample_fmt, int out_sample_rate, KC_SWR_LAYOUT in_ch_layout, \
        enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), \
        (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx)) \
    F(SWRESAMPLE, int, swr_convert, (struct SwrContext *s, KC_SWR_OUT out, int out_count, KC_SWR_IN in, int in_count), \
        (s, out, out_count, in, in_count)) \
    V(SWRESAMPLE, swr_free, (struct SwrContext **s), (s)) \
    F(SWRESAMPLE, int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples)) \
    F(SWRESAMPLE, int, swr_init, (struct SwrContext *s), (s)) \
    V(SWSCALE, sws_freeContext, (struct SwsContext *swsContext), (swsContext)) \
    F(SWSCALE, struct SwsContext *, sws_getCachedContext, (struct SwsContext *context, int srcW, int srcH, \
        enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, \
        SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
        (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    F(SWSCALE, const int *, sws_getCoefficients, (int colorspace), (colorspace)) \
    F(SWSCALE, int, sws_scale, (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], \
        int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]), \
        (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride)) \
    F(SWSCALE, int, sws_setColorspaceDetails, (struct SwsContext *c, const int inv_table[4], int srcRange, \
        const int table[4], int dstRange, int brightness, int contrast, int saturation), \
        (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation)) \
    F(AVCODEC, int, av_codec_is_decoder, (const AVCodec *codec), (codec)) \
    F(AVCODEC, const AVCodec *, av_codec_iterate, (void **opaque), (opaque)) \
    F(AVCODEC, AVPacket *, av_packet_alloc, (void), ()) \
    V(AVCODEC, av_packet_free, (AVPacket **pkt), (pkt)) \
    V(AVCODEC, av_packet_unref, (AVPacket *pkt), (pkt)) \
    F(AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    F(AVCODEC, const AVCodecDescriptor *, avcodec_descriptor_get_by_name, (const char *name), (name)) \
    F(AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    V(AVCODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    V(AVCODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    F(AVCODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    F(AVCODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), \
        (avctx, codec, options)) \
    F(AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    F(AVCODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    F(AVCODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    F(AVFORMAT, int, av_find_best_stream, (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, \
        int related_stream, const AVCodec **decoder_ret, int flags), \
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    F(AVFORMAT, AVRational, av_guess_sample_aspect_ratio, (AVFormatContext *format, AVStream *stream, AVFrame *frame), \
        (format, stream, frame)) \
    F(AVFORMAT, int, av_probe_input_buffer2, (AVIOContext *pb, const AVInputFormat **fmt, const char *url, \
        void *logctx, unsigned int offset, unsigned int max_probe_size), (pb, fmt, url, logctx, offset, max_probe_size)) \
    F(AVFORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(AVFORMAT, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), \
        (s, stream_index, timestamp, flags)) \
    F(AVFORMAT, AVFormatContext *, avformat_alloc_context, (void), ()) \
    V(AVFORMAT, avformat_close_input, (AVFormatContext **s), (s)) \
    F(AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    F(AVFORMAT, int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, \
        AVDictionary **options), (ps, url, fmt, options)) \
    F(AVFORMAT, int, avformat_seek_file, (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, \
        int64_t max_ts, int flags), (s, stream_index, min_ts, ts, max_ts, flags)) \
    F(AVFORMAT, AVIOContext *, avio_alloc_context, (unsigned char *buffer, int buffer_size, int write_flag, \
        void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
        int (*write_packet)(void *opaque, KC_AVIO_WRITE_BUF buf, int buf_size), \
        int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    V(AVFORMAT, avio_context_free, (AVIOContext **s), (s))

// The pointers the load fills, what it finds, the set and the functions themselves
// (library_loader_functions.h).
KC_LOADER(KC_FFMPEG_FUNCTIONS, "FFmpeg", sonames)

int kc_ffmpeg_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_ffmpeg_sonames(void) { return kc_library_set_joined_sonames(&kc_loader_set); }
#pragma GCC visibility pop
