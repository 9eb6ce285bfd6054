// The C library's heap trimming, for Swift (glibc's `malloc.h` is not in Swift's Glibc module).
// Header-only.
#ifndef C_BEACON_HEAP_H
#define C_BEACON_HEAP_H

#if defined(__linux__)
#include <features.h> // defines __GLIBC__ on glibc
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Returns the heap's free pages to the system where the C library can (glibc's `malloc_trim`);
/// does nothing elsewhere. Returns 1 when memory was released.
static inline int beacon_release_free_heap(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

#endif
