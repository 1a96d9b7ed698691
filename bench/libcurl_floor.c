/* Benchmark helper, not a test: the floor under a refresh round trip made from Python, the same POST made
 * from C by a given libcurl, loaded with dlopen: libtelenorid's own libcurl (the system's libcurl.so.4) or the
 * one pycurl's wheel bundles (pycurl.libs/libcurl-*.so). bench/bench_refresh.py subtracts it from each Python
 * client's round trip, so that the two are compared on the work they add above their own libcurl, not on
 * which libcurl they happen to carry.
 *
 *   libcurl_floor <libcurl path> <token endpoint URL> <server pid> [round trips per round] [rounds]
 *
 * What it does: one easy handle kept (one connection), POSTFIELDS set once, the response collected into a
 * buffer, status checked: what bench_refresh.c's "libcurl alone" does. Prints the best round's CPU time per
 * round trip in µs, this process's plus the server's (its schedstat run time), like bench_refresh.py. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FORM "grant_type=refresh_token&refresh_token=rt-0123456789abcdefghijklmnopqrstuvwxyz&client_id=bench-client"

/* The few libcurl values used, from curl/curl.h (stable ABI: docs/libcurl/ABI.md): the handle is opaque and
 * the option numbers never change, so the header of either libcurl serves. */
#define CURLOPT_URL 10002
#define CURLOPT_POSTFIELDS 10015
#define CURLOPT_WRITEFUNCTION 20011
#define CURLOPT_NOSIGNAL 99
#define CURLINFO_RESPONSE_CODE 0x200002
#define CURL_GLOBAL_DEFAULT 3

static void *(*easy_init)(void);
static int (*easy_setopt)(void *, int, ...);
static int (*easy_perform)(void *);
static int (*easy_getinfo)(void *, int, ...);
static int (*global_init)(long);

static char response[4096];
static size_t response_length;

static size_t collect(char *data, size_t size, size_t count, void *user) {
    (void)user;
    size_t bytes = size * count;
    if (response_length + bytes > sizeof response) return 0;
    memcpy(response + response_length, data, bytes);
    response_length += bytes;
    return bytes;
}

static char server_schedstat[64];

static uint64_t server_ns(void) {
    FILE *file = fopen(server_schedstat, "r");
    unsigned long long ns = 0;
    if (!file || fscanf(file, "%llu", &ns) != 1) { perror(server_schedstat); exit(1); }
    fclose(file);
    return ns;
}

static uint64_t cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + server_ns();
}

static void round_trips(void *easy, int n) {
    for (int i = 0; i < n; i++) {
        response_length = 0;
        long status = 0;
        if (easy_perform(easy) != 0 || easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status) != 0 || status != 200 ||
            response_length == 0) {
            fprintf(stderr, "libcurl_floor: round trip failed\n");
            exit(1);
        }
    }
}

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (!found) { fprintf(stderr, "libcurl_floor: %s\n", dlerror()); exit(1); }
    return found;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: libcurl_floor <libcurl path> <token endpoint URL> <server pid> [round trips] [rounds]\n");
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "libcurl_floor: %s\n", dlerror()); return 1; }
    *(void **)&easy_init = symbol(library, "curl_easy_init");
    *(void **)&easy_setopt = symbol(library, "curl_easy_setopt");
    *(void **)&easy_perform = symbol(library, "curl_easy_perform");
    *(void **)&easy_getinfo = symbol(library, "curl_easy_getinfo");
    *(void **)&global_init = symbol(library, "curl_global_init");
    snprintf(server_schedstat, sizeof server_schedstat, "/proc/%d/schedstat", atoi(argv[3]));
    int n = argc > 4 ? atoi(argv[4]) : 1000;
    int rounds = argc > 5 ? atoi(argv[5]) : 1;
    if (n <= 0 || rounds <= 0) return 2;

    global_init(CURL_GLOBAL_DEFAULT);
    void *easy = easy_init();
    if (!easy) return 1;
    easy_setopt(easy, CURLOPT_URL, argv[2]);
    easy_setopt(easy, CURLOPT_POSTFIELDS, FORM);
    easy_setopt(easy, CURLOPT_WRITEFUNCTION, collect);
    easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    round_trips(easy, 50);  /* connection open, caches warm */
    double best = 1e30;
    for (int round = 0; round < rounds; round++) {
        uint64_t start = cpu_ns();
        round_trips(easy, n);
        double us = (double)(cpu_ns() - start) / n / 1000.0;
        if (us < best) best = us;
    }
    printf("%.3f\n", best);
    return 0;
}
