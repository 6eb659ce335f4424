/* Defines the libcurl functions aggr calls and forwards them to libcurl.so.4, loaded with
 * dlopen on first use (see include/CCurl.h for why). */
#include "CCurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

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
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
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
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_socket_action, "curl_multi_socket_action");
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

static long long monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* libcurl says which readiness a socket of a transfer waits for, or that it is done with it. */
static int on_socket(CURL *easy, curl_socket_t socket, int what, void *context, void *socket_context) {
    (void)easy;
    (void)socket_context;
    struct aggr_multi_events *events = context;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(events->epoll, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0);
    event.data.fd = socket;
    if (epoll_ctl(events->epoll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
        epoll_ctl(events->epoll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
}

/* libcurl's single timer: -1 removes it. */
static int on_timer(CURLM *multi, long timeout_ms, void *context) {
    (void)multi;
    struct aggr_multi_events *events = context;
    events->deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    return 0;
}

int aggr_multi_events_attach(CURLM *multi, struct aggr_multi_events *events) {
    if (!ready()) return -1;
    events->deadline = -1;
    events->epoll = epoll_create1(EPOLL_CLOEXEC);
    if (events->epoll < 0) return -1;
    events->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (events->wake < 0) {
        int reason = errno;
        close(events->epoll);
        errno = reason;
        return -1;
    }
    struct epoll_event event = {0};
    event.events = EPOLLIN;
    event.data.fd = events->wake;
    if (epoll_ctl(events->epoll, EPOLL_CTL_ADD, events->wake, &event) != 0) {
        int reason = errno;
        aggr_multi_events_close(events);
        errno = reason;
        return -1;
    }
    curl.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl.multi_setopt(multi, CURLMOPT_SOCKETDATA, events);
    curl.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl.multi_setopt(multi, CURLMOPT_TIMERDATA, events);
    return 0;
}

int aggr_multi_events_drive(CURLM *multi, struct aggr_multi_events *events, int max_wait_ms) {
    int wait = max_wait_ms;
    if (events->deadline >= 0) {
        long long left = events->deadline - monotonic_ms();
        if (left < wait) wait = left < 0 ? 0 : (int)left;
    }
    struct epoll_event ready_events[128];
    int count = epoll_wait(events->epoll, ready_events, 128, wait);
    if (count < 0) return errno == EINTR ? 0 : -1;
    int running = 0;
    for (int index = 0; index < count; index++) {
        int socket = ready_events[index].data.fd;
        uint32_t flags = ready_events[index].events;
        if (socket == events->wake) {
            uint64_t value;
            while (read(events->wake, &value, sizeof value) > 0) {}
            continue;
        }
        int mask = 0;
        /* A peer that hung up is read to its end: libcurl learns of the close by reading. */
        if (flags & (EPOLLIN | EPOLLHUP)) mask |= CURL_CSELECT_IN;
        if (flags & EPOLLOUT) mask |= CURL_CSELECT_OUT;
        if (flags & EPOLLERR) mask |= CURL_CSELECT_ERR;
        curl.multi_socket_action(multi, socket, mask, &running);
    }
    if (events->deadline >= 0 && events->deadline <= monotonic_ms()) {
        events->deadline = -1;
        curl.multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    return 0;
}

void aggr_multi_events_wake(struct aggr_multi_events *events) {
    uint64_t one = 1;
    ssize_t written = write(events->wake, &one, sizeof one);
    (void)written;
}

void aggr_multi_events_close(struct aggr_multi_events *events) {
    if (events->wake >= 0) close(events->wake);
    if (events->epoll >= 0) close(events->epoll);
    events->wake = -1;
    events->epoll = -1;
}
