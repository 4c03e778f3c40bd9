/* Tiny helpers the Raster compositor needs but Swift cannot spell: the
 * prefetch builtin is a compiler intrinsic, not a callable function. The
 * wrappers are `static inline`, so they inline fully into Swift callers. */
#ifndef C_RASTER_SUPPORT_H
#define C_RASTER_SUPPORT_H

/* Hint that the cache line holding `p` will be read soon (into all cache levels).
 * Never faults, even for addresses outside any mapping. */
static inline void raster_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

#endif
