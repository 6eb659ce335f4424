#ifndef AGGR_COPENSSL_H
#define AGGR_COPENSSL_H
/* OpenSSL's libcrypto for signed API requests (HMAC, SHA-1, MD5), loaded on first use like
 * libcurl (see CCurl.h): only a json provider with options.sign needs it. */
#include <stddef.h>

/* The digest algorithms aggr signs with. */
typedef enum { AGGR_DIGEST_SHA256, AGGR_DIGEST_SHA1, AGGR_DIGEST_MD5 } aggr_digest;

/* Writes the HMAC (or, with key NULL, the plain digest) of message into output (at least 64
   bytes); returns its length, or 0 when libcrypto cannot be loaded. */
size_t aggr_digest_compute(aggr_digest digest, const unsigned char *key, size_t key_length,
                           const unsigned char *message, size_t message_length, unsigned char *output);
#endif
