#ifndef AGGR_CZLIB_SHIM_H
#define AGGR_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 is a macro, which Swift cannot call: a gzip stream (window bits 15 + 16). */
static inline int aggr_deflate_gzip_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
