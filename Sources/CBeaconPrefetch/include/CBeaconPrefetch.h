// The processor's prefetch hint, for Swift (which has no intrinsic for it). Header-only: Swift
// inlines `static inline` functions, so a call compiles to the single instruction.
#ifndef C_BEACON_PREFETCH_H
#define C_BEACON_PREFETCH_H

/// Starts fetching the cache line holding `address` for writing, into all cache levels. A hint:
/// never faults, whatever the address; has no effect on program state.
static inline void beacon_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
