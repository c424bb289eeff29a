// Baselines for meridian-bench: the same work done by calling PROJ and GEOS from C, so the cost of
// Meridian's Swift layer can be measured against them in the same run. Not part of Meridian.
#ifndef MERIDIAN_BENCH_BASELINES_H
#define MERIDIAN_BENCH_BASELINES_H

#include <stddef.h>

/// geod_inverse on WGS84 for n pairs; writes distances and both azimuths.
void baseline_geod_inverse(size_t n, const double *lat1, const double *lon1, const double *lat2,
                           const double *lon2, double *s12, double *azi1, double *azi2);

/// geod_direct on WGS84 for n starts; writes the end points and final azimuths.
void baseline_geod_direct(size_t n, const double *lat1, const double *lon1, const double *azi1,
                          const double *s12, double *lat2, double *lon2, double *azi2);

#endif
