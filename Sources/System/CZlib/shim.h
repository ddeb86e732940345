// zlib: deflate (compress2) and crc32 for the PNG preview writer.
#include <zlib.h>
