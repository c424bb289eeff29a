#include "proj_geos_baselines.h"

#include <stdlib.h>
#include <proj.h>
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

struct baseline_proj {
    PJ_CONTEXT *ctx;
    PJ *pj;
};

baseline_proj *baseline_proj_create(const char *source, const char *target) {
    PJ_CONTEXT *ctx = proj_context_create();
    if (!ctx) return NULL;
    PJ *raw = proj_create_crs_to_crs(ctx, source, target, NULL);
    if (!raw) {
        proj_context_destroy(ctx);
        return NULL;
    }
    PJ *pj = proj_normalize_for_visualization(ctx, raw);
    proj_destroy(raw);
    if (!pj) {
        proj_context_destroy(ctx);
        return NULL;
    }
    baseline_proj *p = malloc(sizeof *p);
    if (!p) {
        proj_destroy(pj);
        proj_context_destroy(ctx);
        return NULL;
    }
    p->ctx = ctx;
    p->pj = pj;
    return p;
}

size_t baseline_proj_trans(baseline_proj *p, double *x, double *y, size_t n) {
    return proj_trans_generic(p->pj, PJ_FWD, x, sizeof(double), n, y, sizeof(double), n, NULL, 0, 0, NULL, 0, 0);
}

void baseline_proj_destroy(baseline_proj *p) {
    if (!p) return;
    proj_destroy(p->pj);
    proj_context_destroy(p->ctx);
    free(p);
}

struct baseline_geos {
    GEOSContextHandle_t ctx;
    GEOSGeometry *polygon;
    const GEOSPreparedGeometry *prepared;
};

baseline_geos *baseline_geos_prepare(const double *ring_xy, size_t n) {
    GEOSContextHandle_t ctx = GEOS_init_r();
    if (!ctx) return NULL;
    GEOSCoordSequence *seq = GEOSCoordSeq_copyFromBuffer_r(ctx, ring_xy, (unsigned int)n, 0, 0);
    GEOSGeometry *shell = seq ? GEOSGeom_createLinearRing_r(ctx, seq) : NULL;
    GEOSGeometry *polygon = shell ? GEOSGeom_createPolygon_r(ctx, shell, NULL, 0) : NULL;
    const GEOSPreparedGeometry *prepared = polygon ? GEOSPrepare_r(ctx, polygon) : NULL;
    if (!prepared) {
        if (polygon) GEOSGeom_destroy_r(ctx, polygon);
        GEOS_finish_r(ctx);
        return NULL;
    }
    baseline_geos *g = malloc(sizeof *g);
    if (!g) {
        GEOSPreparedGeom_destroy_r(ctx, prepared);
        GEOSGeom_destroy_r(ctx, polygon);
        GEOS_finish_r(ctx);
        return NULL;
    }
    g->ctx = ctx;
    g->polygon = polygon;
    g->prepared = prepared;
    return g;
}

size_t baseline_geos_contains(baseline_geos *g, const double *x, const double *y, size_t n, unsigned char *inside) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        GEOSGeometry *point = GEOSGeom_createPointFromXY_r(g->ctx, x[i], y[i]);
        char r = GEOSPreparedContains_r(g->ctx, g->prepared, point);
        GEOSGeom_destroy_r(g->ctx, point);
        inside[i] = r == 1;
        count += r == 1;
    }
    return count;
}

void baseline_geos_destroy(baseline_geos *g) {
    if (!g) return;
    GEOSPreparedGeom_destroy_r(g->ctx, g->prepared);
    GEOSGeom_destroy_r(g->ctx, g->polygon);
    GEOS_finish_r(g->ctx);
    free(g);
}
