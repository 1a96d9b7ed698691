/* How long a host waits for libtelenorid to load: dlopen in fresh processes (the first load is what an app
 * pays), median of 21 runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    enum { RUNS = 21 };
    double times[RUNS];
    for (int run = 0; run < RUNS; run++) {
        int pipefd[2];
        if (pipe(pipefd)) return 1;
        pid_t child = fork();
        if (child == 0) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
            clock_gettime(CLOCK_MONOTONIC, &b);
            double ms = lib ? (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 : -1;
            if (write(pipefd[1], &ms, sizeof ms) != sizeof ms) _exit(1);
            _exit(0);
        }
        if (read(pipefd[0], &times[run], sizeof times[run]) != sizeof times[run]) return 1;
        waitpid(child, NULL, 0);
        close(pipefd[0]);
        close(pipefd[1]);
        if (times[run] < 0) { fprintf(stderr, "dlopen failed\n"); return 1; }
    }
    qsort(times, RUNS, sizeof times[0], compare);
    printf("dlopen (RTLD_NOW, fresh process): median %.2f ms, min %.2f ms\n", times[RUNS / 2], times[0]);
    return 0;
}
