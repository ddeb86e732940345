// Only the reentrant (_r) GEOS API: every call takes an explicit context handle,
// so each thread can own its own context.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
