/* The NEON counterparts of the AVX2 build's general-loop shims (CRasterSupport.h), for the
 * `RasterKernelsNEON` module only (built with -DRASTER_KERNELS_NEON on AArch64; docs/arm64.md).
 *
 * Each function gives exactly the bits of its AVX2 namesake: AVX2 works within 128-bit halves,
 * so every function here does the same 128-bit step twice, once per half of the 256-bit value
 * (an ext_vector of 8 × 32 or 16 × 16 bits lives in two NEON registers). The byte shuffles
 * (vpshufb) become tbl with the same patterns, the byte multiply-add (vpmaddubsw) a widening
 * multiply and multiply-accumulate of bytes (umull, umlal: its sums never reach the saturation
 * bound, so they are the same), the unpacks zip with zero, the saturating pack a rounding,
 * saturating narrowing shift. Elsewhere (another architecture, or the portable module) this
 * header is empty. */
#ifndef C_RASTER_SUPPORT_NEON_H
#define C_RASTER_SUPPORT_NEON_H

/* Included by CRasterSupport.h (after its types), not on its own. */

#if defined(__aarch64__) && defined(__ARM_NEON) && defined(RASTER_KERNELS_NEON)
#include <arm_neon.h>

/* The two 128-bit halves of a 256-bit ext_vector, as NEON bytes, and back. */
static inline uint8x16_t raster_neon_lo(raster_u32x8 v) { return (uint8x16_t)__builtin_shufflevector(v, v, 0, 1, 2, 3); }
static inline uint8x16_t raster_neon_hi(raster_u32x8 v) { return (uint8x16_t)__builtin_shufflevector(v, v, 4, 5, 6, 7); }
static inline uint16x8_t raster_neon_lo16(raster_u16x16 v) { return (uint16x8_t)__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7); }
static inline uint16x8_t raster_neon_hi16(raster_u16x16 v) { return (uint16x8_t)__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15); }
static inline raster_u16x16 raster_neon_join16(uint16x8_t lo, uint16x8_t hi)
{
    typedef unsigned short u16x8 __attribute__((ext_vector_type(8)));
    return __builtin_shufflevector((u16x8)lo, (u16x8)hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
static inline raster_u32x8 raster_neon_join32(uint8x16_t lo, uint8x16_t hi)
{
    typedef unsigned int u32x4 __attribute__((ext_vector_type(4)));
    return __builtin_shufflevector((u32x4)lo, (u32x4)hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

/* One half of `raster_filter_pairs`: the two texel pairs of `v` (left texel, right texel, left,
 * right), weights `w` (128 − f in the low byte of each 16-bit lane, f in the high byte). Per
 * channel (128 − f)·left + f·right − 16384: the left texels' bytes (uzp1 of the 32-bit lanes)
 * times the low weight bytes, plus the right texels' times the high ones. The unsigned sum is
 * at most 128·255, so the signed result is vpmaddubsw's exactly (−16384…16256). */
static inline int16x8_t raster_neon_filter_half(uint8x16_t v, uint16x8_t w)
{
    uint32x4_t t = vreinterpretq_u32_u8(v);
    uint8x8_t left = vreinterpret_u8_u32(vget_low_u32(vuzp1q_u32(t, t)));
    uint8x8_t right = vreinterpret_u8_u32(vget_low_u32(vuzp2q_u32(t, t)));
    uint16x8_t sum = vmlal_u8(vmull_u8(left, vmovn_u16(w)), right, vshrn_n_u16(w, 8));
    return vreinterpretq_s16_u16(vsubq_u16(sum, vdupq_n_u16(16384)));
}

/* `raster_filter_pairs` (CRasterSupport.h): the horizontal step of the bilinear filter for the
 * 4 texel pairs in `v`, weights `w` as 128 + 255·f per lane. */
static inline raster_i16x16 raster_filter_pairs(raster_u32x8 v, raster_u16x16 w)
{
    int16x8_t lo = raster_neon_filter_half(raster_neon_lo(v), raster_neon_lo16(w));
    int16x8_t hi = raster_neon_filter_half(raster_neon_hi(v), raster_neon_hi16(w));
    return (raster_i16x16)raster_neon_join16(vreinterpretq_u16_s16(lo), vreinterpretq_u16_s16(hi));
}

/* `raster_spread4`: per-pixel 16-bit values (the low or, with `high`, the high half of each
 * 32-bit lane) spread to the 4 lanes of their pixel in the general loop's layout: tbl with
 * vpshufb's patterns, in each half. */
static inline raster_u16x16 raster_spread4(raster_u32x8 v, int odd, int high)
{
    static const uint8_t patterns[4][16] = {
        {0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5},
        {2, 3, 2, 3, 2, 3, 2, 3, 6, 7, 6, 7, 6, 7, 6, 7},
        {8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13},
        {10, 11, 10, 11, 10, 11, 10, 11, 14, 15, 14, 15, 14, 15, 14, 15},
    };
    uint8x16_t pattern = vld1q_u8(patterns[(odd ? 2 : 0) + (high ? 1 : 0)]);
    return raster_neon_join16(vreinterpretq_u16_u8(vqtbl1q_u8(raster_neon_lo(v), pattern)),
                              vreinterpretq_u16_u8(vqtbl1q_u8(raster_neon_hi(v), pattern)));
}

/* `raster_keep4`: the destination's weight (255 − the source alpha rounded to 8 bits) · 257 in
 * all 4 lanes of each pixel: ⌊(65407 − a) / 256⌋ per lane, then tbl copies the alpha lane's low
 * byte into the pixel's 8 bytes. */
static inline raster_u16x16 raster_keep4(raster_u16x16 s)
{
    static const uint8_t pattern[16] = {6, 6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 14, 14, 14, 14, 14};
    uint8x16_t p = vld1q_u8(pattern);
    uint16x8_t k = vdupq_n_u16(65407);
    uint16x8_t lo = vshrq_n_u16(vsubq_u16(k, raster_neon_lo16(s)), 8);
    uint16x8_t hi = vshrq_n_u16(vsubq_u16(k, raster_neon_hi16(s)), 8);
    return raster_neon_join16(vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(lo), p)),
                              vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(hi), p)));
}

/* `raster_widen4`: pixels 0 1 4 5 (`odd` = 0) or 2 3 6 7 (`odd` = 1) of `d`, each channel as
 * value·256 (vpunpck[lh]bw with zero: the bytes shifted left by 8 as they widen, ushll/ushll2). */
static inline raster_u16x16 raster_widen4(raster_u32x8 d, int odd)
{
    uint8x16_t lo = raster_neon_lo(d), hi = raster_neon_hi(d);
    if (odd) return raster_neon_join16(vshll_high_n_u8(lo, 8), vshll_high_n_u8(hi, 8));
    return raster_neon_join16(vshll_n_u8(vget_low_u8(lo), 8), vshll_n_u8(vget_low_u8(hi), 8));
}

/* `raster_pack4`: source-over results (value·256, `a` pixels 0 1 4 5, `b` 2 3 6 7) to pixels
 * 0…7 with the X byte 0xFF. vpaddusw of ½ then the high byte is ⌊(x + 128) / 256⌋ limited to
 * 255, which is what uqrshrn #8 computes (its sum is not limited to 16 bits, but the result
 * saturates to the same 255); the X byte, which AVX2 saturates, is set. */
static inline raster_u32x8 raster_pack4(raster_u16x16 a, raster_u16x16 b)
{
    uint8x16_t lo = vqrshrn_high_n_u16(vqrshrn_n_u16(raster_neon_lo16(a), 8), raster_neon_lo16(b), 8);
    uint8x16_t hi = vqrshrn_high_n_u16(vqrshrn_n_u16(raster_neon_hi16(a), 8), raster_neon_hi16(b), 8);
    uint8x16_t x = vreinterpretq_u8_u32(vdupq_n_u32(0xFF000000u));
    return raster_neon_join32(vorrq_u8(lo, x), vorrq_u8(hi, x));
}

#endif
#endif
