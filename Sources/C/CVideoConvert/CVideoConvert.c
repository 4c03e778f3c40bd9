/* One pass from YUV 4:2:0 to BGRA, scaled down (include/CVideoConvert.h says what and why). */
#include "CVideoConvert.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Weights are 14-bit fixed point (they sum to 1 << 14); the vertical pass keeps 6 bits below the
 * 8-bit sample (values up to 255 × 64), the horizontal pass too; the colour matrix is 13-bit. */
enum { WEIGHT_BITS = 14, KEPT_BITS = 6, MATRIX_BITS = 13, MAX_HTAPS = 8, MAX_VTAPS = 16 };

/* One direction's filter: for output i, `taps` weights from source sample `start[i]` on. */
typedef struct {
    int taps;
    int32_t *start;
    int16_t *weights; /* taps per output, in order */
    /* Outputs halved_from ..< halved_to (none when equal) start 2 samples apart with the same
     * 4 weights: a 2:1 filter away from the edges, which AVX2 runs as two pmaddwd of neighbours. */
    int halved_from, halved_to;
} filter;

struct kc_yuv_plan {
    int sw, sh, dw, dh;
    int level;                                   /* KC_YUV_PLAIN, KC_YUV_SSE2 or KC_YUV_AVX2 */
    int x0, x1;                                  /* the output columns made */
    filter luma_h, luma_v, chroma_h, chroma_v;
    int32_t y_offset, cy, crv, cgu, cgv, cbu; /* y_offset in the kept 6 bits */
    int16_t *row, *row_u, *row_v;                /* vertically filtered: sw, sw/2, sw/2 */
    int16_t *out_y, *out_u, *out_v;              /* horizontally filtered: dw, dw/2, dw/2 */
};

int kc_yuv_best_level(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? KC_YUV_AVX2 : KC_YUV_SSE2;
#else
    return KC_YUV_PLAIN;
#endif
}

static void filter_free(filter *f) { free(f->start); free(f->weights); }

/* A tent of half-width `radius` (source samples) centred at `a × i + b` for each of `dst`
 * outputs, samples outside 0..<src folded onto the edge one, normalised, quantised so each
 * output's weights sum to exactly 1 << WEIGHT_BITS. `taps` is rounded up to `round_to`. */
static int filter_make(filter *f, int src, int dst, double a, double b, double radius, int round_to, int max_taps)
{
    /* As many taps as the widest output has samples of nonzero weight (|p − centre| < radius):
     * 4 for a tent at 2:1 on whole pixels, not the 5 of its closed support. */
    int taps = 1;
    for (int i = 0; i < dst; i++) {
        double centre = a * i + b;
        int needed = (int)floor(centre + radius - 1e-9) - (int)ceil(centre - radius + 1e-9) + 1;
        if (needed > taps) taps = needed;
    }
    taps = (taps + round_to - 1) / round_to * round_to;
    if (taps > max_taps || taps > src) return 0;
    f->taps = taps;
    f->start = malloc(sizeof(int32_t) * (size_t)dst);
    f->weights = calloc((size_t)dst * (size_t)taps, sizeof(int16_t));
    if (!f->start || !f->weights) return 0;
    for (int i = 0; i < dst; i++) {
        double centre = a * i + b, w[MAX_VTAPS] = {0}, sum = 0;
        int first = (int)ceil(centre - radius + 1e-9);
        int start = first < 0 ? 0 : (first > src - taps ? src - taps : first);
        for (int t = 0; t < taps; t++) {
            int p = first + t;
            double d = fabs(p - centre) / radius, weight = d < 1 ? 1 - d : 0;
            p = p < 0 ? 0 : (p >= src ? src - 1 : p);
            if (p - start >= 0 && p - start < taps) w[p - start] += weight;
            sum += weight;
        }
        int16_t *q = f->weights + (size_t)i * (size_t)taps;
        int total = 0, largest = 0;
        for (int t = 0; t < taps; t++) {
            q[t] = (int16_t)lrint(w[t] / sum * (1 << WEIGHT_BITS));
            total += q[t];
            if (q[t] > q[largest]) largest = t;
        }
        q[largest] = (int16_t)(q[largest] + (1 << WEIGHT_BITS) - total);
        f->start[i] = start;
    }
    f->halved_from = f->halved_to = dst / 2;
    if (taps == 4 && dst >= 2 && f->start[dst / 2] - f->start[dst / 2 - 1] == 2) {
        const int16_t *w = f->weights + (size_t)(dst / 2) * 4;
        int a = dst / 2, b = dst / 2;
        while (a > 0 && f->start[a - 1] == f->start[a] - 2 && !memcmp(f->weights + (size_t)(a - 1) * 4, w, 8)) a--;
        while (b < dst && f->start[b] == f->start[a] + 2 * (b - a) && !memcmp(f->weights + (size_t)b * 4, w, 8)) b++;
        f->halved_from = a;
        f->halved_to = b;
    }
    return 1;
}

kc_yuv_plan *kc_yuv_plan_create(int sw, int sh, int dw, int dh, int x0, int x1, int bt709, int full_range, int level)
{
    if (sw < 8 || sh < 8 || dw < 2 || dh < 2 || (sw | sh | dw | x0 | x1) & 1 || dw > sw || dh > sh || x0 < 0 || x1 > dw || x0 >= x1)
        return NULL;
    kc_yuv_plan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->sw = sw; p->sh = sh; p->dw = dw; p->dh = dh; p->x0 = x0; p->x1 = x1;
    p->level = level < kc_yuv_best_level() ? level : kc_yuv_best_level();
    double rx = (double)sw / dw, ry = (double)sh / dh;
    /* Luma: output pixel i's centre is at (i + ½) × ratio − ½ in source samples. Chroma: two
     * output pixels share one sample horizontally, centred between them; vertically every
     * output row has its own; chroma samples sit between their two luma rows and columns. */
    int ok = filter_make(&p->luma_h, sw, dw, rx, rx / 2 - 0.5, rx, 4, MAX_HTAPS)
        && filter_make(&p->luma_v, sh, dh, ry, ry / 2 - 0.5, ry, 2, MAX_VTAPS)
        && filter_make(&p->chroma_h, sw / 2, dw / 2, rx, rx / 2 - 0.5, rx < 1 ? 1 : rx, 4, MAX_HTAPS)
        && filter_make(&p->chroma_v, sh / 2, dh, ry / 2, ry / 4 - 0.5, ry / 2 < 1 ? 1 : ry / 2, 2, MAX_VTAPS);
    p->row = malloc(sizeof(int16_t) * (size_t)sw);
    p->row_u = malloc(sizeof(int16_t) * (size_t)sw);
    p->row_v = p->row_u + sw / 2;
    p->out_y = malloc(sizeof(int16_t) * (size_t)dw * 2);
    p->out_u = p->out_y + dw;
    p->out_v = p->out_u + dw / 2;
    if (!ok || !p->row || !p->row_u || !p->out_y) { kc_yuv_plan_free(p); return NULL; }
    /* R = Y' + 2(1−Kr)·Pr, B = Y' + 2(1−Kb)·Pb, G = Y' − 2Kb(1−Kb)/Kg·Pb − 2Kr(1−Kr)/Kg·Pr; limited
     * range stretches 219 luma and 224 chroma steps to 255. */
    double kr = bt709 ? 0.2126 : 0.299, kb = bt709 ? 0.0722 : 0.114, kg = 1 - kr - kb;
    double ys = full_range ? 1 : 255.0 / 219, cs = full_range ? 1 : 255.0 / 224, one = 1 << MATRIX_BITS;
    p->y_offset = full_range ? 0 : 16 << KEPT_BITS;
    p->cy = (int32_t)lrint(ys * one);
    p->crv = (int32_t)lrint(2 * (1 - kr) * cs * one);
    p->cbu = (int32_t)lrint(2 * (1 - kb) * cs * one);
    p->cgu = (int32_t)lrint(2 * kb * (1 - kb) / kg * cs * one);
    p->cgv = (int32_t)lrint(2 * kr * (1 - kr) / kg * cs * one);
    return p;
}

void kc_yuv_plan_free(kc_yuv_plan *p)
{
    if (!p) return;
    filter_free(&p->luma_h); filter_free(&p->luma_v); filter_free(&p->chroma_h); filter_free(&p->chroma_v);
    free(p->row); free(p->row_u); free(p->out_y);
    free(p);
}

/* out[x] = Σ weights[t] × rows(first + t)[x] for lo ≤ x < n, keeping KEPT_BITS below the sample.
 * SSE2: 8 columns at a time, two taps per pmaddwd (their rows' bytes interleaved), the sums kept
 * in registers over all taps (`taps` is even: the filter's last weight may be 0). */
#if defined(__x86_64__)
/* AVX2: 16 columns at a time (bytes widened by vpmovzxbw; the sums of each 128-bit lane pack
 * back in order). */
__attribute__((target("avx2"))) static int filter_rows_avx2(const int16_t *w, int taps, const uint8_t *r, int stride,
                                                            int x, int n, int16_t *restrict out)
{
    const int shift = WEIGHT_BITS - KEPT_BITS;
    __m256i pair_weights[MAX_VTAPS / 2];
    const int pairs = taps / 2;
    for (int t = 0; t < pairs; t++)
        pair_weights[t] = _mm256_set1_epi32((int32_t)(uint16_t)w[2 * t] | (int32_t)((uint32_t)(uint16_t)w[2 * t + 1] << 16));
    const __m256i round = _mm256_set1_epi32(1 << (shift - 1));
    for (; x + 16 <= n; x += 16) {
        __m256i lo = round, hi = round;
        for (int t = 0; t < pairs; t++) {
            const uint8_t *r0 = r + (size_t)(2 * t) * (size_t)stride + x;
            __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)r0));
            __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r0 + stride)));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), pair_weights[t]));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), pair_weights[t]));
        }
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_packs_epi32(_mm256_srai_epi32(lo, shift), _mm256_srai_epi32(hi, shift)));
    }
    return x;
}
#endif

static void filter_rows(const filter *f, int level, int i, const uint8_t *plane, int stride, int lo, int n,
                        int16_t *restrict out)
{
    const int16_t *w = f->weights + (size_t)i * (size_t)f->taps;
    const uint8_t *r = plane + (size_t)f->start[i] * (size_t)stride;
    const int shift = WEIGHT_BITS - KEPT_BITS;
    int x = lo;
#if defined(__x86_64__)
    if (level >= KC_YUV_AVX2) x = filter_rows_avx2(w, f->taps, r, stride, x, n, out);
    if (level >= KC_YUV_SSE2) {
    __m128i pair_weights[MAX_VTAPS / 2];
    const int pairs = f->taps / 2;
    for (int t = 0; t < pairs; t++)
        pair_weights[t] = _mm_set1_epi32((int32_t)(uint16_t)w[2 * t] | (int32_t)((uint32_t)(uint16_t)w[2 * t + 1] << 16));
    const __m128i zero = _mm_setzero_si128(), round = _mm_set1_epi32(1 << (shift - 1));
    for (; x + 16 <= n; x += 16) {
        __m128i s0 = round, s1 = round, s2 = round, s3 = round;
        for (int t = 0; t < pairs; t++) {
            const uint8_t *r0 = r + (size_t)(2 * t) * (size_t)stride + x;
            __m128i a = _mm_loadu_si128((const __m128i *)r0), b = _mm_loadu_si128((const __m128i *)(r0 + stride));
            __m128i lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
            s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), pair_weights[t]));
            s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), pair_weights[t]));
            s2 = _mm_add_epi32(s2, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), pair_weights[t]));
            s3 = _mm_add_epi32(s3, _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), pair_weights[t]));
        }
        _mm_storeu_si128((__m128i *)(out + x), _mm_packs_epi32(_mm_srai_epi32(s0, shift), _mm_srai_epi32(s1, shift)));
        _mm_storeu_si128((__m128i *)(out + x + 8), _mm_packs_epi32(_mm_srai_epi32(s2, shift), _mm_srai_epi32(s3, shift)));
    }
    for (; x + 8 <= n; x += 8) {
        __m128i lo = round, hi = round;
        for (int t = 0; t < pairs; t++) {
            const uint8_t *r0 = r + (size_t)(2 * t) * (size_t)stride + x;
            __m128i both = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)r0),
                                             _mm_loadl_epi64((const __m128i *)(r0 + stride)));
            lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_unpacklo_epi8(both, zero), pair_weights[t]));
            hi = _mm_add_epi32(hi, _mm_madd_epi16(_mm_unpackhi_epi8(both, zero), pair_weights[t]));
        }
        _mm_storeu_si128((__m128i *)(out + x), _mm_packs_epi32(_mm_srai_epi32(lo, shift), _mm_srai_epi32(hi, shift)));
    }
    }
#endif
    for (; x < n; x++) {
        int32_t sum = 1 << (shift - 1);
        for (int t = 0; t < f->taps; t++) sum += w[t] * r[(size_t)t * (size_t)stride + (size_t)x];
        out[x] = (int16_t)(sum >> shift);
    }
}

/* out[i] = Σ weights[t] × in[start[i] + t] for lo ≤ i < n (the kept bits stay). */
#if defined(__x86_64__)
/* AVX2, outputs lo ..< n of a 2:1 filter's uniform middle (filter.halved_from/to), 8 at a time:
 * output i is w0·in[s] + w1·in[s+1] + w2·in[s+2] + w3·in[s+3] with s = start[i], so one pmaddwd
 * of the pairs from s on and one of the pairs from s + 2 on give 8 outputs in order. Returns
 * where it stopped. */
__attribute__((target("avx2"))) static int filter_columns_halved_avx2(const filter *f, const int16_t *restrict in, int lo,
                                                                     int n, int16_t *restrict out)
{
    const int16_t *w = f->weights + (size_t)f->halved_from * 4;
    const __m256i w01 = _mm256_set1_epi32((int32_t)(uint16_t)w[0] | (int32_t)((uint32_t)(uint16_t)w[1] << 16));
    const __m256i w23 = _mm256_set1_epi32((int32_t)(uint16_t)w[2] | (int32_t)((uint32_t)(uint16_t)w[3] << 16));
    const __m256i round = _mm256_set1_epi32(1 << (WEIGHT_BITS - 1));
    int i = lo;
    for (; i + 8 <= n; i += 8) {
        const int16_t *s = in + f->start[i];
        __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)s), w01),
                                       _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(s + 2)), w23));
        sum = _mm256_srai_epi32(_mm256_add_epi32(sum, round), WEIGHT_BITS);
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(sum, sum), 0x08);
        _mm_storeu_si128((__m128i *)(out + i), _mm256_castsi256_si128(packed));
    }
    return i;
}
#endif

static void filter_columns_any(const filter *f, int level, const int16_t *restrict in, int lo, int n, int16_t *restrict out);

/* out[i] for lo ≤ i < n: the uniform 2:1 middle by AVX2's pair loop when the CPU has it, the
 * rest by the general loop. */
static void filter_columns(const filter *f, int level, const int16_t *restrict in, int lo, int n, int16_t *restrict out)
{
#if defined(__x86_64__)
    int a = f->halved_from > lo ? f->halved_from : lo, b = f->halved_to < n ? f->halved_to : n;
    if (level >= KC_YUV_AVX2 && b - a >= 8) {
        filter_columns_any(f, level, in, lo, a, out);
        a = filter_columns_halved_avx2(f, in, a, b, out);
        filter_columns_any(f, level, in, a, n, out);
        return;
    }
#endif
    filter_columns_any(f, level, in, lo, n, out);
}

static void filter_columns_any(const filter *f, int level, const int16_t *restrict in, int lo, int n, int16_t *restrict out)
{
    const int taps = f->taps;
    int i = lo;
#if defined(__x86_64__)
    const __m128i round = _mm_set1_epi32(1 << (WEIGHT_BITS - 1));
    if (level >= KC_YUV_SSE2 && taps == 8) {
        for (; i + 4 <= n; i += 4) {
            const int16_t *w = f->weights + (size_t)i * 8;
            __m128i m0 = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(in + f->start[i])), _mm_loadu_si128((const __m128i *)w));
            __m128i m1 = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(in + f->start[i + 1])), _mm_loadu_si128((const __m128i *)(w + 8)));
            __m128i m2 = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(in + f->start[i + 2])), _mm_loadu_si128((const __m128i *)(w + 16)));
            __m128i m3 = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(in + f->start[i + 3])), _mm_loadu_si128((const __m128i *)(w + 24)));
            __m128i t0 = _mm_add_epi32(_mm_unpacklo_epi32(m0, m1), _mm_unpackhi_epi32(m0, m1));
            __m128i t1 = _mm_add_epi32(_mm_unpacklo_epi32(m2, m3), _mm_unpackhi_epi32(m2, m3));
            __m128i s = _mm_add_epi32(_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1));
            s = _mm_srai_epi32(_mm_add_epi32(s, round), WEIGHT_BITS);
            _mm_storel_epi64((__m128i *)(out + i), _mm_packs_epi32(s, s));
        }
    } else if (level >= KC_YUV_SSE2 && taps == 4) {
        for (; i + 4 <= n; i += 4) {
            const int16_t *w = f->weights + (size_t)i * 4;
            __m128i a = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(in + f->start[i])),
                                           _mm_loadl_epi64((const __m128i *)(in + f->start[i + 1])));
            __m128i b = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(in + f->start[i + 2])),
                                           _mm_loadl_epi64((const __m128i *)(in + f->start[i + 3])));
            __m128i m0 = _mm_madd_epi16(a, _mm_loadu_si128((const __m128i *)w));
            __m128i m1 = _mm_madd_epi16(b, _mm_loadu_si128((const __m128i *)(w + 8)));
            __m128 e = _mm_shuffle_ps(_mm_castsi128_ps(m0), _mm_castsi128_ps(m1), _MM_SHUFFLE(2, 0, 2, 0));
            __m128 o = _mm_shuffle_ps(_mm_castsi128_ps(m0), _mm_castsi128_ps(m1), _MM_SHUFFLE(3, 1, 3, 1));
            __m128i s = _mm_add_epi32(_mm_castps_si128(e), _mm_castps_si128(o));
            s = _mm_srai_epi32(_mm_add_epi32(s, round), WEIGHT_BITS);
            _mm_storel_epi64((__m128i *)(out + i), _mm_packs_epi32(s, s));
        }
    }
#endif
    for (; i < n; i++) {
        const int16_t *w = f->weights + (size_t)i * (size_t)taps, *s = in + f->start[i];
        int32_t sum = 1 << (WEIGHT_BITS - 1);
        for (int t = 0; t < taps; t++) sum += w[t] * s[t];
        out[i] = (int16_t)(sum >> WEIGHT_BITS);
    }
}

static inline uint32_t clamp_channel(int32_t v)
{
    v = (v + (1 << (MATRIX_BITS + KEPT_BITS - 1))) >> (MATRIX_BITS + KEPT_BITS);
    return (uint32_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

/* The colour matrix's constants as pmaddwd operands (each lane a pair of int16, or one int32). */
#define KC_MATRIX_CONSTANTS(set1_32, set1_16, set1_8)                                                                  \
    const __typeof__(set1_32(0)) luma = set1_32(cy), red = set1_32(crv << 16), blue = set1_32(cbu),                 \
        green = set1_32((int32_t)(uint16_t)(int16_t)-cgu | (int32_t)((uint32_t)(uint16_t)(int16_t)-cgv << 16)),      \
        luma_zero = set1_16((int16_t)y0), chroma_zero = set1_16((int16_t)(128 << KEPT_BITS)),                       \
        round = set1_32(1 << (MATRIX_BITS + KEPT_BITS - 1)), alpha = set1_8((char)0xFF)

/* From luma `yy` (int16, less its zero) and chroma pairs `uv` (U, V interleaved, less 128) to
 * `bg` (B, G bytes) and `ra` (R, A bytes) of each pixel, with the intrinsics of prefix P (_mm or
 * _mm256) on vectors of type T: each product a pmaddwd into 32 bits, each chroma sum added to
 * its two pixels, the sums packed down with saturation (the clamp to 0–255). */
#define KC_BGRA_PAIRS(T, P, yy, uv, bg, ra)                                                                              \
    T cr = P##_madd_epi16(uv, red), cg = P##_madd_epi16(uv, green), cb = P##_madd_epi16(uv, blue);                     \
    T l0 = P##_add_epi32(P##_madd_epi16(P##_unpacklo_epi16(yy, zero), luma), round);                                   \
    T l1 = P##_add_epi32(P##_madd_epi16(P##_unpackhi_epi16(yy, zero), luma), round);                                   \
    T r8 = P##_packus_epi16(KC_CHANNEL(P, cr), zero), g8 = P##_packus_epi16(KC_CHANNEL(P, cg), zero);                  \
    T b8 = P##_packus_epi16(KC_CHANNEL(P, cb), zero);                                                                 \
    T bg = P##_unpacklo_epi8(b8, g8), ra = P##_unpacklo_epi8(r8, alpha)
#define KC_CHANNEL(P, c)                                                                                              \
    P##_packs_epi32(P##_srai_epi32(P##_add_epi32(l0, P##_unpacklo_epi32(c, c)), MATRIX_BITS + KEPT_BITS),             \
                    P##_srai_epi32(P##_add_epi32(l1, P##_unpackhi_epi32(c, c)), MATRIX_BITS + KEPT_BITS))

#if defined(__x86_64__)
/* AVX2: 16 pixels (8 chroma pairs) at a time, as the SSE2 loop below; the 128-bit lanes hold
 * pixels 0–3 and 8–11, 4–7 and 12–15 until the last permute puts them in order. */
__attribute__((target("avx2"))) static int convert_row_avx2(const kc_yuv_plan *p, int k, uint32_t *restrict dst)
{
    const int16_t *restrict y = p->out_y, *restrict u = p->out_u, *restrict v = p->out_v;
    const int32_t cy = p->cy, crv = p->crv, cgu = p->cgu, cgv = p->cgv, cbu = p->cbu, y0 = p->y_offset;
    KC_MATRIX_CONSTANTS(_mm256_set1_epi32, _mm256_set1_epi16, _mm256_set1_epi8);
    const __m256i zero = _mm256_setzero_si256();
    for (; 2 * k + 16 <= p->x1; k += 8) {
        __m256i yy = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(y + 2 * k)), luma_zero);
        __m128i u8 = _mm_loadu_si128((const __m128i *)(u + k)), v8 = _mm_loadu_si128((const __m128i *)(v + k));
        __m256i uv = _mm256_sub_epi16(_mm256_set_m128i(_mm_unpackhi_epi16(u8, v8), _mm_unpacklo_epi16(u8, v8)), chroma_zero);
        KC_BGRA_PAIRS(__m256i, _mm256, yy, uv, bg, ra);
        __m256i first = _mm256_unpacklo_epi16(bg, ra), second = _mm256_unpackhi_epi16(bg, ra);
        _mm256_storeu_si256((__m256i *)(dst + 2 * k), _mm256_permute2x128_si256(first, second, 0x20));
        _mm256_storeu_si256((__m256i *)(dst + 2 * k + 8), _mm256_permute2x128_si256(first, second, 0x31));
    }
    return k;
}
#endif

/* Two pixels a chroma pair, opaque. */
static void convert_row(const kc_yuv_plan *p, uint32_t *restrict dst)
{
    const int16_t *restrict y = p->out_y, *restrict u = p->out_u, *restrict v = p->out_v;
    const int32_t cy = p->cy, crv = p->crv, cgu = p->cgu, cgv = p->cgv, cbu = p->cbu, y0 = p->y_offset;
    const int32_t c0 = 128 << KEPT_BITS;
    int k = p->x0 / 2;
#if defined(__x86_64__)
    if (p->level >= KC_YUV_AVX2) k = convert_row_avx2(p, k, dst);
    /* 8 pixels (4 chroma pairs) at a time, interleaved into B, G, R, A bytes. */
    KC_MATRIX_CONSTANTS(_mm_set1_epi32, _mm_set1_epi16, _mm_set1_epi8);
    const __m128i zero = _mm_setzero_si128();
    for (; p->level >= KC_YUV_SSE2 && 2 * k + 8 <= p->x1; k += 4) {
        __m128i yy = _mm_sub_epi16(_mm_loadu_si128((const __m128i *)(y + 2 * k)), luma_zero);
        __m128i uv = _mm_unpacklo_epi16(_mm_sub_epi16(_mm_loadl_epi64((const __m128i *)(u + k)), chroma_zero),
                                        _mm_sub_epi16(_mm_loadl_epi64((const __m128i *)(v + k)), chroma_zero));
        KC_BGRA_PAIRS(__m128i, _mm, yy, uv, bg, ra);
        _mm_storeu_si128((__m128i *)(dst + 2 * k), _mm_unpacklo_epi16(bg, ra));
        _mm_storeu_si128((__m128i *)(dst + 2 * k + 4), _mm_unpackhi_epi16(bg, ra));
    }
#endif
    for (; k < p->x1 / 2; k++) {
        int32_t cu = u[k] - c0, cv = v[k] - c0;
        int32_t r = crv * cv, g = -cgu * cu - cgv * cv, b = cbu * cu;
        int32_t l0 = cy * (y[2 * k] - y0), l1 = cy * (y[2 * k + 1] - y0);
        dst[2 * k] = 0xFF000000u | clamp_channel(l0 + r) << 16 | clamp_channel(l0 + g) << 8 | clamp_channel(l0 + b);
        dst[2 * k + 1] = 0xFF000000u | clamp_channel(l1 + r) << 16 | clamp_channel(l1 + g) << 8 | clamp_channel(l1 + b);
    }
}

void kc_yuv_plan_run(const kc_yuv_plan *cp, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                     const uint8_t *v, int v_stride, uint8_t *dst, int dst_stride)
{
    kc_yuv_plan *p = (kc_yuv_plan *)cp; /* its row buffers are scratch: one thread at a time */
    const int c0 = p->x0 / 2, c1 = p->x1 / 2;
    /* The source columns the shown output columns read. */
    const int lo = p->luma_h.start[p->x0], hi = p->luma_h.start[p->x1 - 1] + p->luma_h.taps;
    const int clo = p->chroma_h.start[c0], chi = p->chroma_h.start[c1 - 1] + p->chroma_h.taps;
    for (int j = 0; j < p->dh; j++) {
        filter_rows(&p->luma_v, p->level, j, y, y_stride, lo, hi, p->row);
        filter_columns(&p->luma_h, p->level, p->row, p->x0, p->x1, p->out_y);
        if (v) {
            filter_rows(&p->chroma_v, p->level, j, u, u_stride, clo, chi, p->row_u);
            filter_rows(&p->chroma_v, p->level, j, v, v_stride, clo, chi, p->row_v);
        } else {
            /* NV12: filter the interleaved row, then part it. */
            filter_rows(&p->chroma_v, p->level, j, u, u_stride, 2 * clo, 2 * chi, p->row);
            for (int x = clo; x < chi; x++) { p->row_u[x] = p->row[2 * x]; p->row_v[x] = p->row[2 * x + 1]; }
        }
        filter_columns(&p->chroma_h, p->level, p->row_u, c0, c1, p->out_u);
        filter_columns(&p->chroma_h, p->level, p->row_v, c0, c1, p->out_v);
        convert_row(p, (uint32_t *)(dst + (size_t)j * (size_t)dst_stride));
    }
}
