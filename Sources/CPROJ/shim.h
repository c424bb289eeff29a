// PROJ's public C API and Karney's geodesic routines, for GeoCore only. Not API.
#include <proj.h>
#include <geodesic.h>

// A read prefetch of the cache line holding `address`, into every cache level: GeoCore's
// `Prefetch` (a C function, so that every Swift build, sanitized ones included, calls it as C).
// It never faults and changes no value.
static inline void meridian_prefetch_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
