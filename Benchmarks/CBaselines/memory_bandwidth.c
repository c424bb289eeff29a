#include "memory_bandwidth.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Keeps the compiler from dropping or merging the passes over memory it cannot see used.
#define BARRIER(p) __asm__ volatile("" : : "r"(p) : "memory")

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int bench_memory_bandwidth(size_t bytes, int runs, double *read, double *write, double *copy) {
    size_t words = bytes / sizeof(uint64_t);
    uint64_t *a = malloc(words * sizeof(uint64_t));
    uint64_t *b = malloc(words * sizeof(uint64_t));
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return -1;
    }
    bytes = words * sizeof(uint64_t);
    // Touch every page first, so that the passes measure memory, not page faults.
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    double best_read = 0, best_write = 0, best_copy = 0;
    volatile uint64_t sink = 0;
    for (int run = 0; run < runs; run++) {
        double t0 = seconds();
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t i = 0; i + 4 <= words; i += 4) {
            s0 += a[i];
            s1 += a[i + 1];
            s2 += a[i + 2];
            s3 += a[i + 3];
        }
        sink += s0 + s1 + s2 + s3;
        double t1 = seconds();
        memset(b, run, bytes);
        BARRIER(b);
        double t2 = seconds();
        memcpy(b, a, bytes);
        BARRIER(b);
        double t3 = seconds();
        sink += b[run];
        if (bytes / (t1 - t0) > best_read) best_read = bytes / (t1 - t0);
        if (bytes / (t2 - t1) > best_write) best_write = bytes / (t2 - t1);
        if (2.0 * bytes / (t3 - t2) > best_copy) best_copy = 2.0 * bytes / (t3 - t2);
    }
    (void)sink;
    free(a);
    free(b);
    *read = best_read;
    *write = best_write;
    *copy = best_copy;
    return 0;
}
