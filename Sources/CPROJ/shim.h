// PROJ's public C API and Karney's geodesic routines, for GeoCore only. Not API.
#include <proj.h>
#include <geodesic.h>
