#ifndef AGGR_CIMAGE_H
#define AGGR_CIMAGE_H
/* Image decoding for inline images in `aggr tui`: PNG (libpng), JPEG (libturbojpeg),
 * GIF's first frame (giflib) and WebP (libwebp), each library loaded with dlopen on first
 * use so that no aggr process pays for them at start-up (as libcurl, see CCurl.h). */
#include <stddef.h>

/* Pixels as 8-bit RGBA rows, top to bottom, released with aggr_image_free. */
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
} aggr_rgba_image;

/* Decodes `size` bytes into `out`. Returns 0 on success; otherwise writes a one-line reason
 * (unknown format, library missing, damaged image, too large) into `error`. Images of more
 * than `max_pixels` pixels are refused before their pixels are decoded. */
int aggr_image_decode(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                      size_t error_size);

void aggr_image_free(aggr_rgba_image *image);
#endif
