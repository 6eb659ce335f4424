/* Defines the libcurl functions aggr calls and forwards them to libcurl.so.4, loaded with
 * dlopen on first use (see include/CCurl.h for why). */
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    void *library;
    char error[512];
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                                                      \
    do {                                                                                          \
        *(void **)(&curl.field) = dlsym(curl.library, name);                                       \
        if (curl.field == NULL) {                                                                  \
            snprintf(curl.error, sizeof curl.error, "libcurl.so.4 has no %s", name);               \
            curl.library = NULL;                                                                   \
            return;                                                                                \
        }                                                                                         \
    } while (0)

static void load(void) {
    curl.library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (curl.library == NULL) {
        snprintf(curl.error, sizeof curl.error, "cannot load libcurl: %s", dlerror());
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
}

static int ready(void) {
    pthread_once(&once, load);
    return curl.library != NULL;
}

int aggr_curl_loaded(void) { return ready(); }
const char *aggr_curl_load_error(void) { return ready() ? NULL : curl.error; }

CURLcode curl_global_init(long flags) { return ready() ? curl.global_init(flags) : CURLE_FAILED_INIT; }
CURL *curl_easy_init(void) { return ready() ? curl.easy_init() : NULL; }
void curl_easy_cleanup(CURL *handle) { if (ready()) curl.easy_cleanup(handle); }
const char *curl_easy_strerror(CURLcode code) { return ready() ? curl.easy_strerror(code) : curl.error; }
CURLM *curl_multi_init(void) { return ready() ? curl.multi_init() : NULL; }
CURLMcode curl_multi_cleanup(CURLM *multi) { return ready() ? curl.multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}
CURLMcode curl_multi_perform(CURLM *multi, int *running) { return ready() ? curl.multi_perform(multi, running) : CURLM_INTERNAL_ERROR; }
CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *numfds) {
    return ready() ? curl.multi_poll(multi, extra, count, timeout, numfds) : CURLM_INTERNAL_ERROR;
}
CURLMcode curl_multi_wakeup(CURLM *multi) { return ready() ? curl.multi_wakeup(multi) : CURLM_INTERNAL_ERROR; }
CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) { return ready() ? curl.multi_info_read(multi, queued) : NULL; }
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return ready() ? curl.slist_append(list, text) : NULL;
}
void curl_slist_free_all(struct curl_slist *list) { if (ready()) curl.slist_free_all(list); }

CURLcode aggr_easy_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode aggr_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) { return curl.easy_setopt(handle, option, value); }
CURLcode aggr_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode aggr_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode aggr_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode aggr_easy_setopt_write(CURL *handle, CURLoption option, aggr_write_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode aggr_easy_setopt_xferinfo(CURL *handle, aggr_xferinfo_callback value) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode aggr_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode aggr_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) { return curl.easy_getinfo(handle, info, value); }
CURLcode aggr_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) { return curl.easy_getinfo(handle, info, value); }
CURLMcode aggr_multi_setopt_long(CURLM *handle, CURLMoption option, long value) { return curl.multi_setopt(handle, option, value); }
