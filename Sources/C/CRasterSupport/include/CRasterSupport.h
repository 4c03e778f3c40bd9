/* Tiny helpers the Raster compositor needs but portable Swift cannot spell:
 * the prefetch builtin, and the high half of a 16×16-bit product (one
 * instruction on SSE2 and NEON, but no standard-library SIMD operation).
 * Everything is `static inline`, so it inlines fully into Swift callers. */
#ifndef C_RASTER_SUPPORT_H
#define C_RASTER_SUPPORT_H

/* Imported into Swift as SIMD16<UInt16> and SIMD16<UInt32>. */
typedef unsigned short raster_u16x16 __attribute__((ext_vector_type(16)));
typedef unsigned int raster_u32x16 __attribute__((ext_vector_type(16)));

/* Hint that the cache line holding `p` will be read soon (into all cache levels).
 * Never faults, even for addresses outside any mapping. */
static inline void raster_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/* (a * b) >> 16 per unsigned 16-bit lane (pmulhuw on x86, umull + shrn on ARM). */
static inline raster_u16x16 raster_mulhi(raster_u16x16 a, raster_u16x16 b)
{
    raster_u32x16 p = __builtin_convertvector(a, raster_u32x16) * __builtin_convertvector(b, raster_u32x16);
    return __builtin_convertvector(p >> 16, raster_u16x16);
}

#endif
