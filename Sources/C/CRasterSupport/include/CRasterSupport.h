/* Tiny helpers the Raster compositor needs but portable Swift cannot spell:
 * the prefetch builtin, 32-bit fill and copy, and the high half of a 16×16-bit product (one
 * instruction on SSE2 and NEON, but no standard-library SIMD operation).
 * Everything is `static inline`, so it inlines fully into Swift callers. */
#ifndef C_RASTER_SUPPORT_H
#define C_RASTER_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* Imported into Swift as SIMD16<UInt16> and SIMD16<UInt32>. */
typedef unsigned short raster_u16x16 __attribute__((ext_vector_type(16)));
typedef unsigned int raster_u32x16 __attribute__((ext_vector_type(16)));

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

/* (a * b) >> 16 per unsigned 16-bit lane (pmulhuw on x86, umull + shrn on ARM). */
static inline raster_u16x16 raster_mulhi(raster_u16x16 a, raster_u16x16 b)
{
    raster_u32x16 p = __builtin_convertvector(a, raster_u32x16) * __builtin_convertvector(b, raster_u32x16);
    return __builtin_convertvector(p >> 16, raster_u16x16);
}

#endif
