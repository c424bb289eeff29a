#include "baselines.h"

#include <geodesic.h>

static struct geod_geodesic wgs84(void) {
    struct geod_geodesic g;
    geod_init(&g, 6378137.0, 1 / 298.257223563);
    return g;
}

void baseline_geod_inverse(size_t n, const double *lat1, const double *lon1, const double *lat2,
                           const double *lon2, double *s12, double *azi1, double *azi2) {
    struct geod_geodesic g = wgs84();
    for (size_t i = 0; i < n; i++) {
        geod_inverse(&g, lat1[i], lon1[i], lat2[i], lon2[i], &s12[i], &azi1[i], &azi2[i]);
    }
}

void baseline_geod_direct(size_t n, const double *lat1, const double *lon1, const double *azi1,
                          const double *s12, double *lat2, double *lon2, double *azi2) {
    struct geod_geodesic g = wgs84();
    for (size_t i = 0; i < n; i++) {
        geod_direct(&g, lat1[i], lon1[i], azi1[i], s12[i], &lat2[i], &lon2[i], &azi2[i]);
    }
}
