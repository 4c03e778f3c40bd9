/* Tiny helpers the Raster compositor needs but portable Swift cannot spell:
 * the prefetch builtin, 32-bit fill and copy, the high half of a 16×16-bit product (one
 * instruction on SSE2 and NEON, but no standard-library SIMD operation), a CPU feature check,
 * partial-block loads and stores, 16.16 fixed-point texture coordinates, the general loop's
 * texel-pair loads and rounded high multiply (`vpmulhrsw`), each with a portable fallback; and,
 * for the AVX2 build of the loops only, `vpermd`, `vblendvps` and masked moves (with fallbacks)
 * and the general loop's filter, spread, keep, widen and pack steps (vpmaddubsw, vpshufb,
 * vpunpck, vpackuswb; the portable build filters channel pairs in Swift instead).
 * Everything is `static inline`, so it inlines fully into Swift callers. */
#ifndef C_RASTER_SUPPORT_H
#define C_RASTER_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/* Imported into Swift as SIMD16<UInt16> and SIMD16<UInt32>. */
typedef unsigned short raster_u16x16 __attribute__((ext_vector_type(16)));
typedef unsigned int raster_u32x16 __attribute__((ext_vector_type(16)));

/* 1 when the CPU (and the kernel, for the AVX state) supports x86-64-v3 — AVX2, FMA, BMI1/2,
 * F16C, LZCNT, MOVBE: what the `RasterKernelsAVX2` module is compiled for — else 0. */
static inline int raster_cpu_has_x86_64_v3(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v3");
#else
    return 0;
#endif
}

/* Hint that the cache line holding `p` will be read soon (into all cache levels).
 * Never faults, even for addresses outside any mapping. */
static inline void raster_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/* Stores `count` copies of `value` from `p` on (libc's vectorised wmemset; wchar_t is
 * 32 bits on Linux, checked at compile time). */
static inline void raster_fill32(uint32_t *p, uint32_t value, size_t count)
{
    _Static_assert(sizeof(wchar_t) == 4, "wchar_t must be 32-bit");
    wmemset((wchar_t *)p, (wchar_t)value, count);
}

/* Copies `count` pixels with plain vector loads and stores. glibc's memmove switches to
 * `rep movsb` for row-sized copies, which is markedly slower on some AMD cores. */
static inline void raster_copy32(uint32_t *restrict dst, const uint32_t *restrict src, size_t count)
{
    typedef uint32_t block __attribute__((vector_size(64), aligned(4)));
    size_t i = 0;
    for (; i + 16 <= count; i += 16) *(block *)(dst + i) = *(const block *)(src + i);
    for (; i < count; i++) dst[i] = src[i];
}

/* Imported into Swift as SIMD8<UInt32> and SIMD8<Int32>. */
typedef unsigned int raster_u32x8 __attribute__((ext_vector_type(8)));
typedef int raster_i32x8 __attribute__((ext_vector_type(8)));

/* The lanes of `v` picked by the low 3 bits of each lane of `index`: one vpermd where the module
 * is built for AVX2 (only used there), a loop elsewhere. */
static inline raster_u32x8 raster_permute8(raster_u32x8 v, raster_i32x8 index)
{
#if defined(__AVX2__)
    return (raster_u32x8)_mm256_permutevar8x32_epi32((__m256i)v, (__m256i)index);
#else
    raster_u32x8 r;
    for (int k = 0; k < 8; k++) r[k] = v[index[k] & 7];
    return r;
#endif
}

/* The first `n` (0…8) pixels at `p` in the low lanes (zero in the others), reading nothing
 * past them: one masked load (vpmaskmovd) on AVX2, a short loop elsewhere. */
static inline raster_u32x8 raster_load_partial8(const uint32_t *p, size_t n)
{
#if defined(__AVX2__)
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return (raster_u32x8)_mm256_maskload_epi32((const int *)p, mask);
#else
    raster_u32x8 v = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n && i < 8; i++) v[i] = p[i];
    return v;
#endif
}

/* Stores the low `n` (0…8) lanes of `v` at `p`, writing nothing past them (vpmaskmovd on AVX2). */
static inline void raster_store_partial8(uint32_t *p, raster_u32x8 v, size_t n)
{
#if defined(__AVX2__)
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_maskstore_epi32((int *)p, mask, (__m256i)v);
#else
    for (size_t i = 0; i < n && i < 8; i++) p[i] = v[i];
#endif
}

/* Per lane, `b` where the lane of `mask` has its sign bit set, else `a`: one vblendvps where
 * the module is built for AVX2 (only used there), and/or/andnot elsewhere. */
static inline raster_u32x8 raster_select8(raster_u32x8 a, raster_u32x8 b, raster_i32x8 mask)
{
#if defined(__AVX2__)
    return (raster_u32x8)_mm256_blendv_ps((__m256)a, (__m256)b, (__m256)mask);
#else
    raster_u32x8 m = (raster_u32x8)(mask >> 31);
    return (a & ~m) | (b & m);
#endif
}

/* Imported into Swift as SIMD8<Float> and SIMD16<Int16>. */
typedef float raster_f32x8 __attribute__((ext_vector_type(8)));
typedef short raster_i16x16 __attribute__((ext_vector_type(16)));
/* Internal: 16 lanes of 32 bits for widened products. */
typedef int raster_i32x16 __attribute__((ext_vector_type(16)));

/* The fallbacks below are written with vector extensions only (lane-wise operations, constant
 * shuffles, conversions), so that they compile to packed code on SSE2 and NEON too. */

/* Texture coordinates (texel-centre space) to 16.16 fixed point: ⌊min(v, hi) · 65536 + bias⌋,
 * limited to 0…limit. NaN gives `limit` or less, never an index outside 0…limit. `hi` must be
 * at most 32767 so that nothing overflows. AVX2: vminps, vfmadd, vcvttps2dq, vpminsd, vpmaxsd
 * (the product is exact, so the fused and the separate multiply-add agree). */
static inline raster_i32x8 raster_fixed16(raster_f32x8 v, float hi, float bias, int limit)
{
#if defined(__AVX2__)
    __m256 t = _mm256_min_ps((__m256)v, _mm256_set1_ps(hi));
    t = _mm256_fmadd_ps(t, _mm256_set1_ps(65536.0f), _mm256_set1_ps(bias));
    __m256i i = _mm256_min_epi32(_mm256_cvttps_epi32(t), _mm256_set1_epi32(limit));
    return (raster_i32x8)_mm256_max_epi32(i, _mm256_setzero_si256());
#else
    raster_i32x8 below = v < hi;  /* all ones where v < hi (false for NaN) */
    raster_f32x8 t = (raster_f32x8)(((raster_i32x8)v & below) | ((raster_i32x8)(raster_f32x8)hi & ~below));
    t = t * 65536.0f + bias;
    t = (raster_f32x8)((raster_i32x8)t & (t > 0.0f));  /* negatives to 0 before converting */
    raster_i32x8 i = __builtin_convertvector(t, raster_i32x8);
    raster_i32x8 inside = i < limit;
    return (i & inside) | ((raster_i32x8)limit & ~inside);
#endif
}

/* 16.16 fixed-point coordinates limited to 0…limit: vpminsd and vpmaxsd on AVX2. */
static inline raster_i32x8 raster_clamp_fixed(raster_i32x8 v, int limit)
{
#if defined(__AVX2__)
    return (raster_i32x8)_mm256_max_epi32(_mm256_min_epi32((__m256i)v, _mm256_set1_epi32(limit)), _mm256_setzero_si256());
#else
    raster_i32x8 inside = v < limit;
    v = (v & inside) | ((raster_i32x8)limit & ~inside);
    return v & (v > 0);
#endif
}

/* The general loop's pixel layout: 8 pixels as two vectors of 16-bit lanes, 4 lanes per pixel
 * (its B G R A channels), the first vector holding pixels 0 1 4 5 and the second 2 3 6 7 (the
 * order in which `vpunpck*bw` and `vpackuswb` split and join 8 pixels within 128-bit halves). */

/* The texel pairs (texel i and its right neighbour, as one 64-bit load each) at the indices
 * i[0…3] of `t`, in that order: one vector in the general loop's layout, whose slot order
 * 0 1 4 5 / 2 3 6 7 the indices are stored in. AVX2: vmovq, vmovhps and vinserti128. */
static inline raster_u32x8 raster_load_pairs4(const uint32_t *t, const int32_t *i)
{
#if defined(__AVX2__)
    __m128d lo = _mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(t + i[0]))), (const double *)(t + i[1]));
    __m128d hi = _mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(t + i[2]))), (const double *)(t + i[3]));
    return (raster_u32x8)_mm256_insertf128_si256(_mm256_castsi128_si256(_mm_castpd_si128(lo)), _mm_castpd_si128(hi), 1);
#else
    typedef unsigned long long u64x4 __attribute__((ext_vector_type(4)));
    u64x4 r;
    for (int k = 0; k < 4; k++) {
        unsigned long long pair;
        __builtin_memcpy(&pair, t + i[k], sizeof pair);
        r[k] = pair;
    }
    return (raster_u32x8)r;
#endif
}

/* The left texels (`odd` = 0) or the right texels (`odd` = 1) of the 8 texel pairs in `a`
 * (pixels 0 1 4 5) and `b` (pixels 2 3 6 7), in pixel order: the portable build's layout. One
 * shuffle within 128-bit halves. */
static inline raster_u32x8 raster_split_pairs(raster_u32x8 a, raster_u32x8 b, int odd)
{
    if (odd) return __builtin_shufflevector(a, b, 1, 3, 9, 11, 5, 7, 13, 15);
    return __builtin_shufflevector(a, b, 0, 2, 8, 10, 4, 6, 12, 14);
}

/* (a · b + 2¹⁴) >> 15 per signed 16-bit lane (not both −32768): pmulhrsw on AVX2, vqrdmulh on
 * NEON. */
static inline raster_i16x16 raster_mulhrs(raster_i16x16 a, raster_i16x16 b)
{
#if defined(__AVX2__)
    return (raster_i16x16)_mm256_mulhrs_epi16((__m256i)a, (__m256i)b);
#elif defined(__SSE2__)
    /* From the high and low halves of the products: 2·high + ⌊(⌊low / 2¹⁴⌋ + 1) / 2⌋. */
    typedef short i16x8 __attribute__((ext_vector_type(8)));
    typedef unsigned short u16x8 __attribute__((ext_vector_type(8)));
    i16x8 alo = __builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7), ahi = __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15);
    i16x8 blo = __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7), bhi = __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15);
    i16x8 hlo = (i16x8)_mm_mulhi_epi16((__m128i)alo, (__m128i)blo), hhi = (i16x8)_mm_mulhi_epi16((__m128i)ahi, (__m128i)bhi);
    u16x8 llo = (u16x8)_mm_mullo_epi16((__m128i)alo, (__m128i)blo), lhi = (u16x8)_mm_mullo_epi16((__m128i)ahi, (__m128i)bhi);
    i16x8 rlo = (hlo << 1) + (i16x8)(((llo >> 14) + 1) >> 1), rhi = (hhi << 1) + (i16x8)(((lhi >> 14) + 1) >> 1);
    return __builtin_shufflevector(rlo, rhi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#elif defined(__ARM_NEON)
    /* vqrdmulh: (2ab + 2¹⁵) >> 16, the same value (it saturates only for a = b = −32768). */
    typedef short i16x8 __attribute__((ext_vector_type(8)));
    i16x8 alo = __builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7), ahi = __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15);
    i16x8 blo = __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7), bhi = __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15);
    i16x8 rlo = (i16x8)vqrdmulhq_s16((int16x8_t)alo, (int16x8_t)blo), rhi = (i16x8)vqrdmulhq_s16((int16x8_t)ahi, (int16x8_t)bhi);
    return __builtin_shufflevector(rlo, rhi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#else
    raster_i32x16 p = __builtin_convertvector(a, raster_i32x16) * __builtin_convertvector(b, raster_i32x16);
    return __builtin_convertvector((p + 16384) >> 15, raster_i16x16);
#endif
}

#if defined(__AVX2__)
/* The AVX2 build's layout of the general loop (the portable build filters channel pairs in
 * pixel order with the same integer arithmetic instead: `SpanShader.blendPairs`). */

/* The horizontal step of the bilinear filter for the 4 texel pairs in `v` (left texels in the
 * even lanes): per channel, (128 − f)·left + f·right − 16384 (value·128, biased into signed 16
 * bits), where the 4 lanes of each pixel in `w` all hold 128 + 255·f, f = 0…127 (the bytes
 * 128 − f and f). AVX2: vpxor (texels to signed bytes), vpshufb (each channel of the two texels
 * side by side) and vpmaddubsw, whose sums stay within −16384…16256. */
static inline raster_i16x16 raster_filter_pairs(raster_u32x8 v, raster_u16x16 w)
{
    __m256i t = _mm256_xor_si256((__m256i)v, _mm256_set1_epi8((char)0x80));
    t = _mm256_shuffle_epi8(t, _mm256_setr_epi8(
        0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
        0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15));
    return (raster_i16x16)_mm256_maddubs_epi16((__m256i)w, t);
}

/* Per-pixel values (the low 16 bits of each lane of `v`, pixels 0…7; the high 16 bits with
 * `high` = 1) spread to the general loop's layout: each in its pixel's 4 lanes, pixels 0 1 4 5
 * (`odd` = 0) or 2 3 6 7 (`odd` = 1). One vpshufb on AVX2 (the flags are constants where it is
 * inlined, so the pattern is one too). */
static inline raster_u16x16 raster_spread4(raster_u32x8 v, int odd, int high)
{
    __m256i pattern = odd
        ? _mm256_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13,
                           8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13)
        : _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5,
                           0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5);
    if (high) pattern = _mm256_add_epi8(pattern, _mm256_set1_epi8(2));
    return (raster_u16x16)_mm256_shuffle_epi8((__m256i)v, pattern);
}

/* For source pixels in the general loop's layout (value·256 per channel): the destination's
 * weight (255 − the alpha rounded to 8 bits) · 257 in all 4 lanes of each pixel, as
 * `SpanShader.keep` computes it: ⌊(65407 − a) / 256⌋ is 255 − ⌊(a + 128) / 256⌋ for a ≤ 65280,
 * and one vpshufb copies that byte into the pixel's 8 bytes. */
static inline raster_u16x16 raster_keep4(raster_u16x16 s)
{
    __m256i t = _mm256_srli_epi16(_mm256_sub_epi16(_mm256_set1_epi16((short)65407), (__m256i)s), 8);
    return (raster_u16x16)_mm256_shuffle_epi8(t, _mm256_setr_epi8(
        6, 6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 14, 14, 14, 14, 14,
        6, 6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 14, 14, 14, 14, 14));
}

/* Pixels 0 1 4 5 (`odd` = 0) or 2 3 6 7 (`odd` = 1) of `d` in the general loop's layout, each
 * channel as value·256: one vpunpck[lh]bw with zero on AVX2. */
static inline raster_u16x16 raster_widen4(raster_u32x8 d, int odd)
{
    if (odd) return (raster_u16x16)_mm256_unpackhi_epi8(_mm256_setzero_si256(), (__m256i)d);
    return (raster_u16x16)_mm256_unpacklo_epi8(_mm256_setzero_si256(), (__m256i)d);
}

/* Source-over results in the general loop's layout (value·256 per channel, not yet rounded) as
 * pixels 0…7: `a` holds pixels 0 1 4 5 and `b` 2 3 6 7. Each channel gets ½ added and its high
 * byte is kept; the X byte becomes 0xFF (its lane saturates instead). AVX2: vpaddusw, vpsrlw,
 * vpackuswb. */
static inline raster_u32x8 raster_pack4(raster_u16x16 a, raster_u16x16 b)
{
    __m256i half = _mm256_set1_epi64x(0xFF80008000800080LL);
    __m256i p = _mm256_packus_epi16(_mm256_srli_epi16(_mm256_adds_epu16((__m256i)a, half), 8),
                                    _mm256_srli_epi16(_mm256_adds_epu16((__m256i)b, half), 8));
    return (raster_u32x8)p;
}

#endif

#if defined(__aarch64__) && defined(RASTER_KERNELS_NEON)
/* The NEON module's counterparts of the block above (same names, same bits). */
#include "../neon/CRasterSupportNEON.h"
#endif

/* (a * b) >> 16 per unsigned 16-bit lane (pmulhuw on x86, umull + shrn on ARM).
 * On x86 the instruction is named: spelled as widen-multiply-narrow, LLVM sometimes keeps
 * loop-invariant operands widened and narrows them again in every iteration. */
#if defined(__AVX2__)
static inline raster_u16x16 raster_mulhi(raster_u16x16 a, raster_u16x16 b)
{
    return (raster_u16x16)_mm256_mulhi_epu16((__m256i)a, (__m256i)b);
}
#elif defined(__SSE2__)
static inline raster_u16x16 raster_mulhi(raster_u16x16 a, raster_u16x16 b)
{
    typedef unsigned short u16x8 __attribute__((ext_vector_type(8)));
    u16x8 alo = __builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7);
    u16x8 ahi = __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15);
    u16x8 blo = __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7);
    u16x8 bhi = __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15);
    u16x8 lo = (u16x8)_mm_mulhi_epu16((__m128i)alo, (__m128i)blo);
    u16x8 hi = (u16x8)_mm_mulhi_epu16((__m128i)ahi, (__m128i)bhi);
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
#else
static inline raster_u16x16 raster_mulhi(raster_u16x16 a, raster_u16x16 b)
{
    raster_u32x16 p = __builtin_convertvector(a, raster_u32x16) * __builtin_convertvector(b, raster_u32x16);
    return __builtin_convertvector(p >> 16, raster_u16x16);
}
#endif

#endif
