/* How long a host waits for libtelenorid to load: dlopen in fresh processes (the first load is what an app
 * pays), median of 21 runs; with a second library, the two alternating run by run (libcurl.so.4 alone: the
 * floor, since libtelenorid loads it too), and the row recorded for bench/report.py.
 *
 *   dlopen_time LIBRARY [REFERENCE] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_results.h"

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The time of one dlopen in a fresh process, in ms. */
static double load_once(const char *path) {
    int pipefd[2];
    if (pipe(pipefd)) exit(1);
    pid_t child = fork();
    if (child == 0) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = lib ? (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 : -1;
        if (write(pipefd[1], &ms, sizeof ms) != sizeof ms) _exit(1);
        _exit(0);
    }
    double ms = -1;
    if (read(pipefd[0], &ms, sizeof ms) != sizeof ms) exit(1);
    waitpid(child, NULL, 0);
    close(pipefd[0]);
    close(pipefd[1]);
    if (ms < 0) {
        fprintf(stderr, "dlopen of %s failed\n", path);
        exit(1);
    }
    return ms;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    enum { RUNS = 21 };
    double times[RUNS], reference[RUNS];
    for (int run = 0; run < RUNS; run++) {
        times[run] = load_once(argv[1]);
        if (argc > 2) reference[run] = load_once(argv[2]);
    }
    qsort(times, RUNS, sizeof times[0], compare);
    printf("dlopen (RTLD_NOW, fresh process): median %.2f ms, min %.2f ms", times[RUNS / 2], times[0]);
    if (argc > 2) {
        qsort(reference, RUNS, sizeof reference[0], compare);
        printf("; %s alone: median %.2f ms, min %.2f ms (%.2fx)", argv[2], reference[RUNS / 2], reference[0],
               times[RUNS / 2] / reference[RUNS / 2]);
        bench_record("dlopen", times[RUNS / 2], reference[RUNS / 2]);
    }
    printf("\n");
    return 0;
}
