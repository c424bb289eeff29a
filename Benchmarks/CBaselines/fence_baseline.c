#include "fence_baseline.h"

#include <geodesic.h>

size_t baseline_fence_pairs(size_t points, const double *point_lat, const double *point_lon,
                            size_t fences, const double *fence_lat, const double *fence_lon,
                            const double *fence_radius) {
    struct geod_geodesic g;
    geod_init(&g, 6378137.0, 1 / 298.257223563);
    size_t pairs = 0;
    for (size_t i = 0; i < points; i++) {
        for (size_t j = 0; j < fences; j++) {
            double s12 = 0;
            geod_inverse(&g, fence_lat[j], fence_lon[j], point_lat[i], point_lon[i], &s12, NULL, NULL);
            if (s12 <= fence_radius[j]) pairs++;
        }
    }
    return pairs;
}
