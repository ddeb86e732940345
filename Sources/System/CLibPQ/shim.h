// Debian's libpq-dev (pkg-config libpq: -I/usr/include/postgresql).
#include <libpq-fe.h>
