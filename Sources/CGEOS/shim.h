// GEOS's C API for GeoCore only. Not API.
// Only the reentrant (`_r`) functions are visible: every call names its context.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
