#ifndef AGGR_COPENSSL_SHIM_H
#define AGGR_COPENSSL_SHIM_H
// OpenSSL's libcrypto (already linked by libcurl-openssl): HMAC and message digests for
// signed API requests.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
