#ifndef AGGR_CCURL_H
#define AGGR_CCURL_H
/* libcurl, loaded on first use.
 *
 * Linking libcurl pulls in some thirty shared libraries (TLS, HTTP/2, LDAP, Kerberos, …),
 * which cost every aggr process ~5 ms before main, although only refresh and add speak
 * HTTP. So aggr does not link it: CurlLoader.c defines the few libcurl functions aggr calls
 * and forwards each to the real one, resolved with dlopen("libcurl.so.4") the first time
 * any of them runs. The declarations below are libcurl's own headers. */
#include <curl/curl.h>

/* Whether libcurl could be loaded; when not, aggr_curl_load_error() says why. */
int aggr_curl_loaded(void);
const char *aggr_curl_load_error(void);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
   one typed wrapper per argument type. */
CURLcode aggr_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode aggr_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode aggr_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode aggr_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode aggr_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
typedef size_t (*aggr_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode aggr_easy_setopt_write(CURL *handle, CURLoption option, aggr_write_callback value);
typedef int (*aggr_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                      curl_off_t ultotal, curl_off_t ulnow);
CURLcode aggr_easy_setopt_xferinfo(CURL *handle, aggr_xferinfo_callback value);
CURLcode aggr_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode aggr_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode aggr_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);

/* The multi handle driven by its sockets' readiness (curl_multi_socket_action) through
 * epoll, instead of curl_multi_perform and curl_multi_poll, which visit every transfer
 * (a poll entry and often a read each) at every turn: with hundreds of transfers in
 * flight that was most of the driver thread's time. */
struct aggr_multi_events {
    int epoll;
    /* An eventfd in the epoll set: aggr_multi_events_wake interrupts a wait. */
    int wake;
    /* When libcurl wants curl_multi_socket_action(CURL_SOCKET_TIMEOUT), in ms of
       CLOCK_MONOTONIC, or -1. */
    long long deadline;
};

/* Creates the epoll and wake descriptors and hands libcurl the socket and timer
   callbacks; 0, or -1 with errno set. */
int aggr_multi_events_attach(CURLM *multi, struct aggr_multi_events *events);
/* Waits up to max_wait_ms for socket readiness, libcurl's timer or a wake-up, then lets
   libcurl act on what is ready; 0, or -1 with errno set. */
int aggr_multi_events_drive(CURLM *multi, struct aggr_multi_events *events, int max_wait_ms);
/* Interrupts aggr_multi_events_drive from another thread. */
void aggr_multi_events_wake(struct aggr_multi_events *events);
/* Closes the descriptors (after curl_multi_cleanup). */
void aggr_multi_events_close(struct aggr_multi_events *events);
#endif
