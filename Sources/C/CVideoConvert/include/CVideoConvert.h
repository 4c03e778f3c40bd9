/* A video frame's YUV 4:2:0 planes (yuv420p or NV12, 8 bits) scaled down and converted to opaque
 * premultiplied BGRA (ARGB8888 in memory order B, G, R, A) in one pass over the output rows,
 * instead of libswscale's horizontal scale, vertical scale and YUV→RGB steps (docs/video.md).
 *
 * The filter is a tent (triangle) whose half-width is the downscale ratio, as libswscale's
 * SWS_BILINEAR uses when scaling down, centred on each output pixel; weights in 14 bits. Rows are
 * filtered vertically first (contiguous, vectorised), then horizontally (a dot product of 4 or 8
 * neighbouring samples per output pixel: pmaddwd on SSE2, vmlal on NEON), then converted; two
 * output pixels share a chroma sample horizontally as in libswscale's BGRA output, chroma is
 * interpolated vertically to every output row. Colour: BT.601 or BT.709, limited or full range,
 * into full-range RGB.
 *
 * A plan covers only what it can do exactly: 4:2:0 sources, an even source width and height, an
 * even output width, output no larger than the source either way, at most about 3.5:1 horizontally (8 taps). `kc_yuv_plan_create` returns NULL for anything else: the caller uses libswscale then. */
#ifndef C_VIDEO_CONVERT_H
#define C_VIDEO_CONVERT_H

#include <stdint.h>

typedef struct kc_yuv_plan kc_yuv_plan;

/* The instruction sets a plan can use: plain C, SSE2 (every x86-64), AVX2 (x86-64-v3, checked at
 * run time). Every level gives the same bytes. */
enum { KC_YUV_PLAIN = 0, KC_YUV_SSE2 = 1, KC_YUV_AVX2 = 2 };
/* The best level this CPU runs. */
int kc_yuv_best_level(void);

/* A plan for `sw × sh` 4:2:0 frames to `dw × dh` BGRA of which only output columns `x0 ..< x1`
 * (both even) are made — each exactly as in the whole-width picture, reading only the source
 * columns they need; `bt709` chooses the matrix (else BT.601), `full_range` the input range (else
 * 16–235/240); `level` the instruction set at most (lowered to what the CPU has). NULL when the geometry is not covered (see above) or memory runs out. */
kc_yuv_plan *kc_yuv_plan_create(int sw, int sh, int dw, int dh, int x0, int x1, int bt709, int full_range, int level);
void kc_yuv_plan_free(kc_yuv_plan *plan);

/* Scales and converts one frame: luma `y` (`y_stride` bytes a row), chroma `u` and `v` (yuv420p:
 * two planes; NV12: `v` is NULL and `u` the interleaved CbCr plane), each with its stride, into `dst`
 * (output column 0 of the first row; only columns x0 ..< x1 are written), `dst_stride` bytes a
 * row, `dh` rows. */
void kc_yuv_plan_run(const kc_yuv_plan *plan, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                     const uint8_t *v, int v_stride, uint8_t *dst, int dst_stride);

#endif
