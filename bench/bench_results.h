/* Where the C benchmarks leave their figures for bench/report.py, which prints the one table of goals:
 * a JSON line {"row": ..., "telenorid": ..., "reference": ...} appended to the file named by
 * $BENCH_RESULTS (nothing when it is unset, so a benchmark still runs on its own). */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H
#include <stdio.h>
#include <stdlib.h>

static void bench_record(const char *row, double telenorid, double reference) {
    const char *path = getenv("BENCH_RESULTS");
    if (!path || !*path) return;
    FILE *file = fopen(path, "a");
    if (!file) { perror(path); exit(1); }
    fprintf(file, "{\"row\": \"%s\", \"telenorid\": %.6g, \"reference\": %.6g}\n", row, telenorid, reference);
    fclose(file);
}
#endif
