// The machine's memory bandwidth, measured in the benchmark's own run, so that each phase of a
// build can be compared with the time its bytes take to move. Not part of Meridian.
#ifndef MERIDIAN_BENCH_MEMORY_BANDWIDTH_H
#define MERIDIAN_BENCH_MEMORY_BANDWIDTH_H

#include <stddef.h>

/// Bytes per second of three streams over buffers of `bytes` bytes (far larger than the caches),
/// the best of `runs` passes each: reading (summing 64-bit words), writing (memset) and copying
/// (memcpy, counting the bytes read and written). Returns 0 on success, -1 when the buffers cannot
/// be allocated.
int bench_memory_bandwidth(size_t bytes, int runs, double *read, double *write, double *copy);

#endif
