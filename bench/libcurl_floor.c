/* Benchmark helper, not a test: the floor under a refresh round trip made from Python, the same POST made
 * from C by a given libcurl, loaded with dlopen: libtelenorid's own libcurl (the system's libcurl.so.4) or the
 * one pycurl's wheel bundles (pycurl.libs/libcurl-*.so). bench/bench_refresh.py subtracts it from each Python
 * client's round trip, so that the two are compared on the work they add above their own libcurl, not on
 * which libcurl they happen to carry.
 *
 *   libcurl_floor <libcurl path> <token endpoint URL> <server pid> [round trips per round] [rounds]
 *
 * What it does is bench/libcurl_floor.h, the same code as bench_refresh.c's "libcurl alone". Prints the best
 * round's CPU time per round trip in µs, this process's plus the server's (its schedstat run time), like
 * bench_refresh.py. */
#include <time.h>

#include "libcurl_floor.h"

#define FORM "grant_type=refresh_token&refresh_token=rt-0123456789abcdefghijklmnopqrstuvwxyz&client_id=bench-client"

static uint64_t cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + floor_server_ns();
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: libcurl_floor <libcurl path> <token endpoint URL> <server pid> [round trips] [rounds]\n");
        return 2;
    }
    floor_watch_server(argv[3]);
    int n = argc > 4 ? atoi(argv[4]) : 1000;
    int rounds = argc > 5 ? atoi(argv[5]) : 1;
    if (n <= 0 || rounds <= 0) return 2;

    floor_open(argv[1], argv[2], FORM);
    floor_round_trips(50);  /* connection open, caches warm */
    double best = 1e30;
    for (int round = 0; round < rounds; round++) {
        uint64_t start = cpu_ns();
        floor_round_trips(n);
        double us = (double)(cpu_ns() - start) / n / 1000.0;
        if (us < best) best = us;
    }
    printf("%.3f\n", best);
    floor_close();
    return 0;
}
