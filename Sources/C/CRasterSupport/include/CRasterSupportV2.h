/* The x86-64-v2 build of the compositor's loops (module `RasterKernelsV2`, compiled with
 * -march=x86-64-v2: SSSE3, SSE4.1, SSE4.2, POPCNT): the SSSE3/SSE4.1 counterparts of
 * CRasterSupport.h's AVX2 helpers, one 128-bit instruction per half of each 256-bit one.
 *
 * Every AVX2 instruction the helpers use works within 128-bit halves (vpshufb, vpmaddubsw,
 * vpmulhrsw, vpunpck*bw, vpackuswb) or lane by lane (vminps, vcvttps2dq, vpminsd), so doing
 * each half with its SSE instruction gives the same bits: the general loop's layout (pixels
 * 0 1 4 5 / 2 3 6 7) is the same in both builds. Included by CRasterSupport.h only where
 * __SSSE3__ is defined and __AVX2__ is not; everything is `static inline`. */
#ifndef C_RASTER_SUPPORT_V2_H
#define C_RASTER_SUPPORT_V2_H

#include <smmintrin.h>

/* As in CRasterSupport.h (declared there after the point that includes this file; C11 allows
 * the same typedef twice). */
typedef float raster_f32x8 __attribute__((ext_vector_type(8)));
typedef short raster_i16x16 __attribute__((ext_vector_type(16)));

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

#undef RASTER_V2_LO
#undef RASTER_V2_HI
#endif
