/* libcrypto's HMAC and EVP_Digest, resolved with dlopen on first use. */
#include "COpenSSL.h"

#include <dlfcn.h>
#include <pthread.h>

typedef const void *(*md_getter)(void);

static struct {
    void *library;
    unsigned char *(*hmac)(const void *, const void *, int, const unsigned char *, size_t, unsigned char *, unsigned int *);
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const void *, void *);
    md_getter sha256, sha1, md5;
    int (*pbkdf2)(const char *, int, const unsigned char *, int, int, const void *, int, unsigned char *);
} crypto;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)(&crypto.hmac) = dlsym(library, "HMAC");
    *(void **)(&crypto.digest) = dlsym(library, "EVP_Digest");
    *(void **)(&crypto.sha256) = dlsym(library, "EVP_sha256");
    *(void **)(&crypto.sha1) = dlsym(library, "EVP_sha1");
    *(void **)(&crypto.md5) = dlsym(library, "EVP_md5");
    *(void **)(&crypto.pbkdf2) = dlsym(library, "PKCS5_PBKDF2_HMAC");
    if (crypto.hmac && crypto.digest && crypto.sha256 && crypto.sha1 && crypto.md5 && crypto.pbkdf2) crypto.library = library;
}

size_t aggr_digest_compute(aggr_digest digest, const unsigned char *key, size_t key_length,
                           const unsigned char *message, size_t message_length, unsigned char *output) {
    pthread_once(&once, load);
    if (crypto.library == NULL) return 0;
    const void *type = digest == AGGR_DIGEST_SHA256 ? crypto.sha256() : digest == AGGR_DIGEST_SHA1 ? crypto.sha1() : crypto.md5();
    unsigned int length = 0;
    if (key != NULL) {
        if (crypto.hmac(type, key, (int)key_length, message, message_length, output, &length) == NULL) return 0;
    } else if (crypto.digest(message, message_length, output, &length, type, NULL) != 1) {
        return 0;
    }
    return length;
}

int aggr_pbkdf2_sha256(const char *password, size_t password_length, const unsigned char *salt, size_t salt_length,
                       int iterations, unsigned char *output, size_t output_length) {
    pthread_once(&once, load);
    if (crypto.library == NULL) return 0;
    return crypto.pbkdf2(password, (int)password_length, salt, (int)salt_length, iterations, crypto.sha256(), (int)output_length,
                         output) == 1;
}
