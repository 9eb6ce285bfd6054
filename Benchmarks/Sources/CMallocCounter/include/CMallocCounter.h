#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H
/// Number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// made by this process since it started. The benchmark executable interposes the allocator.
long beacond_bench_allocation_count(void);
#endif
