/* Tiny helpers the Raster compositor needs but portable Swift cannot spell:
 * the prefetch builtin, 32-bit fill and copy, the high half of a 16×16-bit product (one
 * instruction on SSE2 and NEON, but no standard-library SIMD operation), a CPU feature check,
 * partial-block loads and stores, the split of texel pairs, 16.16 fixed-point texture coordinates
 * and their fractions, and for the AVX2 build of the loops
 * `vpermd`, `vblendvps` and masked moves (each with a portable fallback).
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

/* The left texels (low halves, `odd` = 0) or the right texels (high halves, `odd` = 1) of the 8
 * texel pairs at `p`, stored in the slot order 0 1 4 5 2 3 6 7, in pixel order: two loads and
 * one in-lane shuffle per 256 bits. The empty asm keeps the loaded vectors whole (LLVM otherwise
 * may turn a shuffle of loads into 8 scalar element inserts). */
static inline raster_u32x8 raster_pair_halves(const uint64_t *p, int odd)
{
    typedef unsigned int u32x8u __attribute__((ext_vector_type(8), aligned(4)));
    raster_u32x8 a = *(const u32x8u *)p, b = *(const u32x8u *)(p + 4);
#if defined(__AVX__)
    __asm__("" : "+x"(a), "+x"(b));
#endif
    if (odd) return __builtin_shufflevector(a, b, 1, 3, 9, 11, 5, 7, 13, 15);
    return __builtin_shufflevector(a, b, 0, 2, 8, 10, 4, 6, 12, 14);
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

/* Imported into Swift as SIMD8<Float>. */
typedef float raster_f32x8 __attribute__((ext_vector_type(8)));

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
    raster_i32x8 r;
    for (int k = 0; k < 8; k++) {
        float t = v[k] < hi ? v[k] : hi;
        t = t * 65536.0f + bias;
        int i = t > 0.0f ? (int)t : 0;
        r[k] = i < limit ? i : limit;
    }
    return r;
#endif
}

/* Bits 8…15 of each lane (the 8-bit fraction of a 16.16 coordinate) in both of its 16-bit
 * halves: one vpshufb on AVX2. */
static inline raster_u16x16 raster_fraction8_pairs(raster_i32x8 v)
{
#if defined(__AVX2__)
    return (raster_u16x16)_mm256_shuffle_epi8((__m256i)v, _mm256_setr_epi8(
        1, -1, 1, -1, 5, -1, 5, -1, 9, -1, 9, -1, 13, -1, 13, -1,
        1, -1, 1, -1, 5, -1, 5, -1, 9, -1, 9, -1, 13, -1, 13, -1));
#else
    raster_u32x8 b = ((raster_u32x8)v >> 8) & 0xFF;
    return (raster_u16x16)(b | (b << 16));
#endif
}

/* The low 16 bits of each lane (the fraction of a 16.16 coordinate) in both of its 16-bit
 * halves: one vpshufb on AVX2. */
static inline raster_u16x16 raster_fraction16_pairs(raster_i32x8 v)
{
#if defined(__AVX2__)
    return (raster_u16x16)_mm256_shuffle_epi8((__m256i)v, _mm256_setr_epi8(
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13,
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13));
#else
    raster_u32x8 w = (raster_u32x8)v & 0xFFFF;
    return (raster_u16x16)(w | (w << 16));
#endif
}

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
