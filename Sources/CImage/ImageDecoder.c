#include "CImage.h"

#include <dlfcn.h>
#include <gif_lib.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/decode.h>

/* The library's declarations come from its headers; its functions are looked up in the
 * shared object named here, the first time an image of its format arrives. */
static void *library(const char *name) {
    return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

static int fail(char *error, size_t size, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, size, format, arguments);
    va_end(arguments);
    return -1;
}

#define LOOKUP(handle, name) ((__typeof__(&name))dlsym(handle, #name))

/* -1 with the reason when `width`×`height` is no image (damaged) or more than `max_pixels`. */
static int check_size(const char *kind, long width, long height, long max_pixels, char *error, size_t error_size) {
    if (width <= 0 || height <= 0) return fail(error, error_size, "damaged %s: %ldx%ld pixels", kind, width, height);
    if (width > 65535 || height > 65535 || width * height > max_pixels)
        return fail(error, error_size, "%s of %ldx%ld pixels is too large", kind, width, height);
    return 0;
}

static int decode_png(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                      size_t error_size) {
    void *handle = library("libpng16.so.16");
    if (!handle) return fail(error, error_size, "PNG needs libpng16 (apt-get install libpng16-16)");
    __typeof__(&png_image_begin_read_from_memory) begin = LOOKUP(handle, png_image_begin_read_from_memory);
    __typeof__(&png_image_finish_read) finish = LOOKUP(handle, png_image_finish_read);
    __typeof__(&png_image_free) release = LOOKUP(handle, png_image_free);
    if (!begin || !finish || !release) return fail(error, error_size, "libpng16 lacks the simplified API");
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!begin(&image, data, size)) return fail(error, error_size, "damaged PNG: %s", image.message);
    if (check_size("PNG", image.width, image.height, max_pixels, error, error_size) != 0) {
        release(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels) {
        release(&image);
        return fail(error, error_size, "out of memory");
    }
    if (!finish(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        return fail(error, error_size, "damaged PNG: %s", image.message);
    }
    out->pixels = pixels;
    out->width = (int)image.width;
    out->height = (int)image.height;
    return 0;
}

static int decode_jpeg(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                       size_t error_size) {
    void *handle = library("libturbojpeg.so.0");
    if (!handle) return fail(error, error_size, "JPEG needs libturbojpeg (apt-get install libturbojpeg0)");
    __typeof__(&tjInitDecompress) init = LOOKUP(handle, tjInitDecompress);
    __typeof__(&tjDecompressHeader3) header = LOOKUP(handle, tjDecompressHeader3);
    __typeof__(&tjDecompress2) decompress = LOOKUP(handle, tjDecompress2);
    __typeof__(&tjDestroy) destroy = LOOKUP(handle, tjDestroy);
    if (!init || !header || !decompress || !destroy) return fail(error, error_size, "libturbojpeg lacks tjDecompress2");
    tjhandle decoder = init();
    if (!decoder) return fail(error, error_size, "libturbojpeg could not start");
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (header(decoder, data, (unsigned long)size, &width, &height, &subsampling, &colorspace) != 0) {
        destroy(decoder);
        return fail(error, error_size, "damaged JPEG");
    }
    if (check_size("JPEG", width, height, max_pixels, error, error_size) != 0) {
        destroy(decoder);
        return -1;
    }
    unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
    if (!pixels) {
        destroy(decoder);
        return fail(error, error_size, "out of memory");
    }
    int status = decompress(decoder, data, (unsigned long)size, pixels, width, 0, height, TJPF_RGBA, 0);
    destroy(decoder);
    if (status != 0) {
        free(pixels);
        return fail(error, error_size, "damaged JPEG");
    }
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return 0;
}

static int decode_webp(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                       size_t error_size) {
    void *handle = library("libwebp.so.7");
    if (!handle) return fail(error, error_size, "WebP needs libwebp (apt-get install libwebp7)");
    __typeof__(&WebPGetInfo) info = LOOKUP(handle, WebPGetInfo);
    __typeof__(&WebPDecodeRGBA) decode = LOOKUP(handle, WebPDecodeRGBA);
    __typeof__(&WebPFree) release = LOOKUP(handle, WebPFree);
    if (!info || !decode || !release) return fail(error, error_size, "libwebp lacks WebPDecodeRGBA");
    int width = 0, height = 0;
    if (!info(data, size, &width, &height)) return fail(error, error_size, "damaged WebP");
    if (check_size("WebP", width, height, max_pixels, error, error_size) != 0) return -1;
    uint8_t *decoded = decode(data, size, &width, &height);
    if (!decoded) return fail(error, error_size, "damaged WebP");
    size_t bytes = (size_t)width * (size_t)height * 4;
    unsigned char *pixels = malloc(bytes);
    if (pixels) memcpy(pixels, decoded, bytes);
    release(decoded);
    if (!pixels) return fail(error, error_size, "out of memory");
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return 0;
}

/* giflib reads through a callback: the bytes still to read. */
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} gif_source;

static int read_gif(GifFileType *file, GifByteType *buffer, int wanted) {
    gif_source *source = file->UserData;
    size_t left = source->size - source->offset;
    size_t count = (size_t)wanted < left ? (size_t)wanted : left;
    memcpy(buffer, source->data + source->offset, count);
    source->offset += count;
    return (int)count;
}

static int decode_gif(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                      size_t error_size) {
    void *handle = library("libgif.so.7");
    if (!handle) return fail(error, error_size, "GIF needs giflib (apt-get install libgif7)");
    __typeof__(&DGifOpen) open = LOOKUP(handle, DGifOpen);
    __typeof__(&DGifSlurp) slurp = LOOKUP(handle, DGifSlurp);
    __typeof__(&DGifCloseFile) close = LOOKUP(handle, DGifCloseFile);
    __typeof__(&DGifSavedExtensionToGCB) control = LOOKUP(handle, DGifSavedExtensionToGCB);
    if (!open || !slurp || !close || !control) return fail(error, error_size, "giflib lacks DGifSlurp");
    gif_source source = {data, size, 0};
    int status = 0;
    GifFileType *file = open(&source, read_gif, &status);
    if (!file) return fail(error, error_size, "damaged GIF");
    if (check_size("GIF", file->SWidth, file->SHeight, max_pixels, error, error_size) != 0) {
        close(file, &status);
        return -1;
    }
    if (slurp(file) != GIF_OK || file->ImageCount < 1) {
        close(file, &status);
        return fail(error, error_size, "damaged GIF");
    }
    SavedImage *frame = &file->SavedImages[0];
    ColorMapObject *colors = frame->ImageDesc.ColorMap ? frame->ImageDesc.ColorMap : file->SColorMap;
    int transparent = -1;
    GraphicsControlBlock block;
    if (control(file, 0, &block) == GIF_OK) transparent = block.TransparentColor;
    int width = file->SWidth, height = file->SHeight;
    unsigned char *pixels = calloc((size_t)width * (size_t)height, 4);
    if (!pixels || !colors) {
        free(pixels);
        close(file, &status);
        return fail(error, error_size, pixels ? "damaged GIF: no colour table" : "out of memory");
    }
    GifImageDesc *desc = &frame->ImageDesc;
    for (int y = 0; y < desc->Height; y++) {
        int row = desc->Top + y;
        if (row < 0 || row >= height) continue;
        for (int x = 0; x < desc->Width; x++) {
            int column = desc->Left + x;
            if (column < 0 || column >= width) continue;
            int index = frame->RasterBits[(size_t)y * (size_t)desc->Width + (size_t)x];
            if (index == transparent || index >= colors->ColorCount) continue;
            unsigned char *pixel = pixels + ((size_t)row * (size_t)width + (size_t)column) * 4;
            pixel[0] = colors->Colors[index].Red;
            pixel[1] = colors->Colors[index].Green;
            pixel[2] = colors->Colors[index].Blue;
            pixel[3] = 255;
        }
    }
    close(file, &status);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return 0;
}

int aggr_image_decode(const unsigned char *data, size_t size, long max_pixels, aggr_rgba_image *out, char *error,
                      size_t error_size) {
    memset(out, 0, sizeof *out);
    if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0)
        return decode_png(data, size, max_pixels, out, error, error_size);
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF)
        return decode_jpeg(data, size, max_pixels, out, error, error_size);
    if (size >= 6 && (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0))
        return decode_gif(data, size, max_pixels, out, error, error_size);
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0)
        return decode_webp(data, size, max_pixels, out, error, error_size);
    return fail(error, error_size, "not a PNG, JPEG, GIF or WebP image");
}

void aggr_image_free(aggr_rgba_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
