#include <proj.h>
// Karney's geodesic routines ship inside libproj; used for geodesic areas and distances.
#include <geodesic.h>
