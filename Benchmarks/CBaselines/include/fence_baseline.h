// Brute-force geofence baseline for `meridian-bench fence`: every (point, circle) pair decided by
// PROJ's geod_inverse, called from C. Not part of Meridian.
#ifndef MERIDIAN_BENCH_FENCE_BASELINE_H
#define MERIDIAN_BENCH_FENCE_BASELINE_H

#include <stddef.h>

/// The number of (point, circle) pairs with WGS84 geodesic distance <= radius, testing every pair
/// with geod_inverse.
size_t baseline_fence_pairs(size_t points, const double *point_lat, const double *point_lon,
                            size_t fences, const double *fence_lat, const double *fence_lon,
                            const double *fence_radius);

#endif
