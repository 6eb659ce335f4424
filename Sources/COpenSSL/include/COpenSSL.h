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

/* PBKDF2-HMAC-SHA256 of password and salt, iterations rounds, into output (output_length
   bytes): the slow salted hash user passwords are kept as. Returns 1, or 0 when libcrypto
   cannot be loaded. */
int aggr_pbkdf2_sha256(const char *password, size_t password_length, const unsigned char *salt, size_t salt_length,
                       int iterations, unsigned char *output, size_t output_length);
#endif
