/* The libcurl floor, one copy for bench/libcurl_floor.c (the floor under a Python client, run with the
 * libcurl the client carries) and bench/bench_refresh.c ("libcurl alone" beside libtelenorid): the same
 * refresh POST made with a given libcurl loaded by dlopen, one easy handle kept (one connection),
 * POSTFIELDS set once, the response collected into a buffer, the status checked. Nothing else: no form
 * building, no JSON, so the figure is what moving the bytes costs. Also the server's CPU clock both count
 * beside their own (its schedstat run time). */
#ifndef LIBCURL_FLOOR_H
#define LIBCURL_FLOOR_H
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few libcurl values used, from curl/curl.h (stable ABI: docs/libcurl/ABI.md): the handle is opaque and
 * the option numbers never change, so the header of either libcurl serves. */
#define FLOOR_CURLOPT_URL 10002
#define FLOOR_CURLOPT_POSTFIELDS 10015
#define FLOOR_CURLOPT_WRITEFUNCTION 20011
#define FLOOR_CURLOPT_NOSIGNAL 99
#define FLOOR_CURLINFO_RESPONSE_CODE 0x200002
#define FLOOR_CURL_GLOBAL_DEFAULT 3

static struct {
    void *(*easy_init)(void);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_perform)(void *);
    int (*easy_getinfo)(void *, int, ...);
    void (*easy_cleanup)(void *);
    int (*global_init)(long);
    void *easy;
    char response[4096];
    size_t response_length;
} floor_curl;

static size_t floor_collect(char *data, size_t size, size_t count, void *user) {
    (void)user;
    size_t bytes = size * count;
    if (floor_curl.response_length + bytes > sizeof floor_curl.response) return 0;
    memcpy(floor_curl.response + floor_curl.response_length, data, bytes);
    floor_curl.response_length += bytes;
    return bytes;
}

static void *floor_symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (!found) { fprintf(stderr, "libcurl floor: %s\n", dlerror()); exit(1); }
    return found;
}

/* Loads the libcurl at `library` (a path, or a soname such as "libcurl.so.4": the one already loaded when a
 * loaded library needs it) and opens the easy handle that POSTs `form` to `url`. */
static void floor_open(const char *library_path, const char *url, const char *form) {
    void *library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "libcurl floor: %s\n", dlerror()); exit(1); }
    *(void **)&floor_curl.easy_init = floor_symbol(library, "curl_easy_init");
    *(void **)&floor_curl.easy_setopt = floor_symbol(library, "curl_easy_setopt");
    *(void **)&floor_curl.easy_perform = floor_symbol(library, "curl_easy_perform");
    *(void **)&floor_curl.easy_getinfo = floor_symbol(library, "curl_easy_getinfo");
    *(void **)&floor_curl.easy_cleanup = floor_symbol(library, "curl_easy_cleanup");
    *(void **)&floor_curl.global_init = floor_symbol(library, "curl_global_init");
    floor_curl.global_init(FLOOR_CURL_GLOBAL_DEFAULT);
    floor_curl.easy = floor_curl.easy_init();
    if (!floor_curl.easy) { fprintf(stderr, "libcurl floor: curl_easy_init failed\n"); exit(1); }
    floor_curl.easy_setopt(floor_curl.easy, FLOOR_CURLOPT_URL, url);
    floor_curl.easy_setopt(floor_curl.easy, FLOOR_CURLOPT_POSTFIELDS, form);
    floor_curl.easy_setopt(floor_curl.easy, FLOOR_CURLOPT_WRITEFUNCTION, floor_collect);
    floor_curl.easy_setopt(floor_curl.easy, FLOOR_CURLOPT_NOSIGNAL, 1L);
}

static void floor_round_trips(int n) {
    for (int i = 0; i < n; i++) {
        floor_curl.response_length = 0;
        long status = 0;
        if (floor_curl.easy_perform(floor_curl.easy) != 0 ||
            floor_curl.easy_getinfo(floor_curl.easy, FLOOR_CURLINFO_RESPONSE_CODE, &status) != 0 || status != 200 ||
            floor_curl.response_length == 0) {
            fprintf(stderr, "libcurl floor: round trip failed\n");
            exit(1);
        }
    }
}

static void floor_close(void) {
    floor_curl.easy_cleanup(floor_curl.easy);
    floor_curl.easy = NULL;
}

/* The server's CPU time so far: the first field of /proc/<pid>/schedstat, nanoseconds on a CPU (the
 * clock-tick counts of /proc/<pid>/stat are too coarse for a few thousand short requests). */
static char floor_server_schedstat[64];

static void floor_watch_server(const char *pid) {
    snprintf(floor_server_schedstat, sizeof floor_server_schedstat, "/proc/%d/schedstat", atoi(pid));
}

static uint64_t floor_server_ns(void) {
    FILE *file = fopen(floor_server_schedstat, "r");
    unsigned long long ns = 0;
    if (!file || fscanf(file, "%llu", &ns) != 1) { perror(floor_server_schedstat); exit(1); }
    fclose(file);
    return ns;
}
#endif
