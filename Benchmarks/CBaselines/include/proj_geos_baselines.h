// Baselines for `meridian-bench transform` and `meridian-bench geometry`: PROJ's batch transformation
// and GEOS's prepared point-in-polygon test called directly from C. Not part of Meridian.
#ifndef MERIDIAN_BENCH_PROJ_GEOS_BASELINES_H
#define MERIDIAN_BENCH_PROJ_GEOS_BASELINES_H

#include <stddef.h>

/// A PROJ context with a normalized source-to-target operation (longitude, latitude order).
typedef struct baseline_proj baseline_proj;

/// proj_context_create, proj_create_crs_to_crs and proj_normalize_for_visualization; NULL on failure.
baseline_proj *baseline_proj_create(const char *source, const char *target);

/// proj_trans_generic forward over n points in place (x and y contiguous arrays); returns the count
/// PROJ reports.
size_t baseline_proj_trans(baseline_proj *p, double *x, double *y, size_t n);

/// Destroys the operation, then the context.
void baseline_proj_destroy(baseline_proj *p);

/// A GEOS context with a polygon and its prepared geometry.
typedef struct baseline_geos baseline_geos;

/// Builds a polygon from a closed ring of n points (interleaved x, y) and prepares it; NULL on failure.
baseline_geos *baseline_geos_prepare(const double *ring_xy, size_t n);

/// For each of n points: GEOSGeom_createPointFromXY_r, GEOSPreparedContains_r, GEOSGeom_destroy_r.
/// Writes 1/0 per point and returns how many are inside.
size_t baseline_geos_contains(baseline_geos *g, const double *x, const double *y, size_t n, unsigned char *inside);

/// Destroys the prepared geometry, the polygon and the context.
void baseline_geos_destroy(baseline_geos *g);

#endif
