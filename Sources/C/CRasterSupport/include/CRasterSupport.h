/* Tiny helpers the Raster compositor needs but portable Swift cannot spell:
 * the prefetch builtin, 32-bit fill and copy, the high half of a 16×16-bit product (one
 * instruction on SSE2 and NEON, but no standard-library SIMD operation), a CPU feature check,
 * partial-block loads and stores, 16.16 fixed-point texture coordinates, the general loop's
 * texel-pair loads and rounded high multiply (`vpmulhrsw`), each with a portable fallback; and,
 * for the AVX2 build of the loops only, `vpermd`, `vblendvps` and masked moves (with fallbacks)
 * and the general loop's filter, spread, keep, widen and pack steps (vpmaddubsw, vpshufb,
 * vpunpck, vpackuswb; the portable build filters channel pairs in Swift instead); and, for the
 * x86-64-v2 build, their SSSE3/SSE4.1 counterparts (one block below).
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

/* 1 when the CPU supports x86-64-v2 — SSSE3, SSE4.1, SSE4.2, POPCNT (and CMPXCHG16B, LAHF/SAHF):
 * what the `RasterKernelsV2` module is compiled for — else 0. */
static inline int raster_cpu_has_x86_64_v2(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v2");
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

/* Stores the 8 lanes of `v` at `p`, which needs no alignment: one vector store (two on SSE
 * and NEON). The general loop's first pass stores through this rather than Swift's generic
 * `storeBytes`, which the optimizer left as an out-of-line call there once the loop grew. */
static inline void raster_store8(void *p, raster_u32x8 v) { __builtin_memcpy(p, &v, sizeof v); }

/* ---- x86-64-v2 build (module `RasterKernelsV2`, -march=x86-64-v2: SSSE3, SSE4.1, SSE4.2,
 * POPCNT): the SSSE3/SSE4.1 counterparts of the AVX2 helpers, one 128-bit instruction per half
 * of each 256-bit one. Every AVX2 instruction they replace works within 128-bit halves
 * (vpshufb, vpmaddubsw, vpmulhrsw, vpunpck*bw, vpackuswb) or lane by lane (vminps, vcvttps2dq,
 * vpminsd), so doing each half with its SSE instruction gives the same bits: the general loop's
 * layout (pixels 0 1 4 5 / 2 3 6 7) is the same in both builds. (In this file rather than a
 * header of its own: SwiftPM does not rebuild its users when only such a header changes.) */
#if defined(__SSSE3__) && !defined(__AVX2__)
/* Declared here, before the functions that use them below; the same typedefs follow for the
 * other builds (C11 allows repeating a typedef). */
typedef float raster_f32x8 __attribute__((ext_vector_type(8)));
typedef short raster_i16x16 __attribute__((ext_vector_type(16)));

#include <smmintrin.h>

/* Internal: 4 lanes of 32 bits, the halves of a raster_u32x8 / raster_i32x8 / raster_f32x8. */
typedef unsigned int raster_v2_u32x4 __attribute__((ext_vector_type(4)));
typedef float raster_v2_f32x4 __attribute__((ext_vector_type(4)));

/* The low and the high 128 bits of a 256-bit vector, and the two joined again. */
#define RASTER_V2_LO(v) ((__m128i)__builtin_shufflevector((raster_u32x8)(v), (raster_u32x8)(v), 0, 1, 2, 3))
#define RASTER_V2_HI(v) ((__m128i)__builtin_shufflevector((raster_u32x8)(v), (raster_u32x8)(v), 4, 5, 6, 7))
static inline raster_u32x8 raster_v2_join(__m128i lo, __m128i hi)
{
    return __builtin_shufflevector((raster_v2_u32x4)lo, (raster_v2_u32x4)hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

/* raster_mulhrs: (a · b + 2¹⁴) >> 15 per signed 16-bit lane, one pmulhrsw per half. */
static inline raster_i16x16 raster_v2_mulhrs(raster_i16x16 a, raster_i16x16 b)
{
    return (raster_i16x16)raster_v2_join(_mm_mulhrs_epi16(RASTER_V2_LO(a), RASTER_V2_LO(b)),
                                         _mm_mulhrs_epi16(RASTER_V2_HI(a), RASTER_V2_HI(b)));
}

/* raster_load_pairs4: movq and movhps per half, as the AVX2 build's vmovq and vmovhps (the
 * vector-extension fallback compiled to a movq per pair and a punpcklqdq per two). */
static inline raster_u32x8 raster_v2_load_pairs4(const uint32_t *t, const int32_t *i)
{
    __m128d lo = _mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(t + i[0]))), (const double *)(t + i[1]));
    __m128d hi = _mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(t + i[2]))), (const double *)(t + i[3]));
    return raster_v2_join(_mm_castpd_si128(lo), _mm_castpd_si128(hi));
}

/* raster_load_partial8 and raster_store_partial8 (SSE has no masked move of 32-bit lanes; the
 * vector-extension loop wrote lanes through the stack and then read the vector back, which
 * stalls on store forwarding): a whole 16-byte move for the first 4 pixels when there are 4,
 * then movd, movq and pinsrd / pextrd for the rest, picked by a switch. */
static inline __m128i raster_v2_load_partial4(const uint32_t *p, size_t n)
{
    switch (n) {
    case 0: return _mm_setzero_si128();
    case 1: return _mm_cvtsi32_si128((int)p[0]);
    case 2: return _mm_loadl_epi64((const __m128i *)p);
    case 3: return _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)p), (int)p[2], 2);
    default: return _mm_loadu_si128((const __m128i *)p);
    }
}

static inline raster_u32x8 raster_v2_load_partial8(const uint32_t *p, size_t n)
{
    if (n < 4) return raster_v2_join(raster_v2_load_partial4(p, n), _mm_setzero_si128());
    return raster_v2_join(_mm_loadu_si128((const __m128i *)p), raster_v2_load_partial4(p + 4, n - 4));
}

static inline void raster_v2_store_partial4(uint32_t *p, __m128i v, size_t n)
{
    switch (n) {
    case 0: return;
    case 1: p[0] = (uint32_t)_mm_cvtsi128_si32(v); return;
    case 2: _mm_storel_epi64((__m128i *)p, v); return;
    case 3: _mm_storel_epi64((__m128i *)p, v); p[2] = (uint32_t)_mm_extract_epi32(v, 2); return;
    default: _mm_storeu_si128((__m128i *)p, v); return;
    }
}

static inline void raster_v2_store_partial8(uint32_t *p, raster_u32x8 v, size_t n)
{
    if (n < 4) { raster_v2_store_partial4(p, RASTER_V2_LO(v), n); return; }
    _mm_storeu_si128((__m128i *)p, RASTER_V2_LO(v));
    raster_v2_store_partial4(p + 4, RASTER_V2_HI(v), n - 4);
}

/* raster_fixed16 with SSE4.1: minps (NaN gives `hi`: the second operand), mulps and addps
 * (the product is exact, so this is the AVX2 build's fused multiply-add), cvttps2dq, pminsd,
 * pmaxsd. */
static inline __m128i raster_v2_fixed16_half(__m128 v, float hi, float bias, int limit)
{
    __m128 t = _mm_min_ps(v, _mm_set1_ps(hi));
    t = _mm_add_ps(_mm_mul_ps(t, _mm_set1_ps(65536.0f)), _mm_set1_ps(bias));
    __m128i i = _mm_min_epi32(_mm_cvttps_epi32(t), _mm_set1_epi32(limit));
    return _mm_max_epi32(i, _mm_setzero_si128());
}

static inline raster_i32x8 raster_v2_fixed16(raster_f32x8 v, float hi, float bias, int limit)
{
    return (raster_i32x8)raster_v2_join(raster_v2_fixed16_half((__m128)RASTER_V2_LO(v), hi, bias, limit),
                                        raster_v2_fixed16_half((__m128)RASTER_V2_HI(v), hi, bias, limit));
}

/* raster_clamp_fixed: pminsd and pmaxsd per half. */
static inline raster_i32x8 raster_v2_clamp_fixed(raster_i32x8 v, int limit)
{
    __m128i l = _mm_set1_epi32(limit), z = _mm_setzero_si128();
    return (raster_i32x8)raster_v2_join(_mm_max_epi32(_mm_min_epi32(RASTER_V2_LO(v), l), z),
                                        _mm_max_epi32(_mm_min_epi32(RASTER_V2_HI(v), l), z));
}

/* The general loop's layout helpers under the AVX2 build's names (see CRasterSupport.h for
 * what each computes): pxor, pshufb and pmaddubsw; pshufb; psubw, psrlw and pshufb;
 * punpck[lh]bw; paddusw, psrlw and packuswb — each once per half. */

static inline raster_i16x16 raster_filter_pairs(raster_u32x8 v, raster_u16x16 w)
{
    const __m128i sign = _mm_set1_epi8((char)0x80);
    const __m128i side = _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    __m128i lo = _mm_shuffle_epi8(_mm_xor_si128(RASTER_V2_LO(v), sign), side);
    __m128i hi = _mm_shuffle_epi8(_mm_xor_si128(RASTER_V2_HI(v), sign), side);
    return (raster_i16x16)raster_v2_join(_mm_maddubs_epi16(RASTER_V2_LO(w), lo), _mm_maddubs_epi16(RASTER_V2_HI(w), hi));
}

static inline raster_u16x16 raster_spread4(raster_u32x8 v, int odd, int high)
{
    __m128i pattern = odd ? _mm_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13)
                          : _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5);
    if (high) pattern = _mm_add_epi8(pattern, _mm_set1_epi8(2));
    /* The empty asm hides the constant from LLVM, which would otherwise replace each pshufb by
     * pshuflw or pshufhw and pshufd (two shuffles instead of one). */
    __asm__("" : "+x"(pattern));
    return (raster_u16x16)raster_v2_join(_mm_shuffle_epi8(RASTER_V2_LO(v), pattern), _mm_shuffle_epi8(RASTER_V2_HI(v), pattern));
}

static inline raster_u16x16 raster_keep4(raster_u16x16 s)
{
    const __m128i top = _mm_set1_epi16((short)65407);
    const __m128i alpha = _mm_setr_epi8(6, 6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 14, 14, 14, 14, 14);
    __m128i lo = _mm_srli_epi16(_mm_sub_epi16(top, RASTER_V2_LO(s)), 8);
    __m128i hi = _mm_srli_epi16(_mm_sub_epi16(top, RASTER_V2_HI(s)), 8);
    return (raster_u16x16)raster_v2_join(_mm_shuffle_epi8(lo, alpha), _mm_shuffle_epi8(hi, alpha));
}

static inline raster_u16x16 raster_widen4(raster_u32x8 d, int odd)
{
    const __m128i z = _mm_setzero_si128();
    if (odd) return (raster_u16x16)raster_v2_join(_mm_unpackhi_epi8(z, RASTER_V2_LO(d)), _mm_unpackhi_epi8(z, RASTER_V2_HI(d)));
    return (raster_u16x16)raster_v2_join(_mm_unpacklo_epi8(z, RASTER_V2_LO(d)), _mm_unpacklo_epi8(z, RASTER_V2_HI(d)));
}

static inline raster_u32x8 raster_pack4(raster_u16x16 a, raster_u16x16 b)
{
    const __m128i half = _mm_set1_epi64x(0xFF80008000800080LL);
    __m128i lo = _mm_packus_epi16(_mm_srli_epi16(_mm_adds_epu16(RASTER_V2_LO(a), half), 8),
                                  _mm_srli_epi16(_mm_adds_epu16(RASTER_V2_LO(b), half), 8));
    __m128i hi = _mm_packus_epi16(_mm_srli_epi16(_mm_adds_epu16(RASTER_V2_HI(a), half), 8),
                                  _mm_srli_epi16(_mm_adds_epu16(RASTER_V2_HI(b), half), 8));
    return raster_v2_join(lo, hi);
}

/* `SpanShader.keep` for [G A] channel pairs (value·256, A in the high 16 bits of each 32-bit
 * lane): 255 − ⌊(a + 128) / 256⌋ = ⌊(65407 − a) / 256⌋ (a ≤ 65280), the high byte of the
 * 16-bit difference, copied into the lane's 4 bytes by one pshufb: psubw and pshufb per half
 * (the portable code takes eight operations, the AVX2 build four with a 32-bit multiply). */
static inline raster_u16x16 raster_keep_pairs(raster_u16x16 sag)
{
    const __m128i top = _mm_set1_epi16((short)65407);
    const __m128i alpha = _mm_setr_epi8(3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
    return (raster_u16x16)raster_v2_join(_mm_shuffle_epi8(_mm_sub_epi16(top, RASTER_V2_LO(sag)), alpha),
                                         _mm_shuffle_epi8(_mm_sub_epi16(top, RASTER_V2_HI(sag)), alpha));
}

/* The row filter's `BlockShape.halves4` loads: the texels at columns ci[0..7] of texture row
 * `t` (with `right`, their right neighbours), where each half of the 8 columns reads within the
 * 4 texels from its lowest, lane `low` of the half (0, or 3 when mirrored): per half one 16-byte
 * load spread by one pshufb, whose byte indices `spread` (4 per half, from the column table)
 * pick each lane's texel; the right neighbours are the next texel, 4 bytes further. */
static inline raster_u32x8 raster_v2_halves4(const uint32_t *t, const int32_t *ci, int low, const uint32_t *spread, int right)
{
    __m128i half[2];
    for (int h = 0; h < 2; h++) {
        __m128i c = _mm_loadu_si128((const __m128i *)(spread + 4 * h));
        if (right) c = _mm_add_epi8(c, _mm_set1_epi8(4));
        half[h] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(t + ci[4 * h + low])), c);
    }
    return raster_v2_join(half[0], half[1]);
}

#undef RASTER_V2_LO
#undef RASTER_V2_HI
#endif /* x86-64-v2 */

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
#elif defined(__SSSE3__)
    return raster_v2_load_partial8(p, n < 8 ? n : 8);
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
#elif defined(__SSSE3__)
    raster_v2_store_partial8(p, v, n < 8 ? n : 8);
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
#elif defined(__SSE4_1__)
    return raster_v2_fixed16(v, hi, bias, limit);
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
#elif defined(__SSE4_1__)
    return raster_v2_clamp_fixed(v, limit);
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
#elif defined(__SSSE3__)
    return raster_v2_load_pairs4(t, i);
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
#elif defined(__SSSE3__)
    /* x86-64-v2: one pmulhrsw per 8 lanes. */
    return raster_v2_mulhrs(a, b);
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
