/* Helper processes for the C tests (the provider, the browser's part, the secrets' launcher): a program
 * whose first line of output the test needs. */
#ifndef TELENORID_TEST_CHILD_PROCESS_H
#define TELENORID_TEST_CHILD_PROCESS_H
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv with its stdout on a pipe and reads its first line into `line` with read(2), a byte at a time:
 * no stdio buffer keeps a copy of what it said (test_secrets scans memory for such copies). The process is
 * left running with its pid in *keep, or waited for when `keep` is NULL (then it must exit 0). */
static int first_line(char *const argv[], char *line, size_t size, pid_t *keep) {
    int out[2];
    if (pipe(out) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    size_t used = 0;
    while (used < size - 1 && read(out[0], line + used, 1) == 1 && line[used] != '\n') used++;
    line[used] = '\0';
    close(out[0]);
    int ok = used > 0;
    if (keep) {
        *keep = pid;
    } else {
        int status = 0;
        ok = waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 && ok;
    }
    return ok;
}

/* Copies the JSON string value after `key` (given with its opening quote: "\"issuer\": \"") that follows
 * `from` ("" for anywhere) in a helper's first line into `out`: the helpers print one JSON line, so no JSON
 * parser is needed. 0 when absent or too long. */
static inline int field_after(const char *line, const char *from, const char *key, char *out, size_t size) {
    const char *start = strstr(line, from);
    start = start ? strstr(start, key) : NULL;
    if (!start) return 0;
    start += strlen(key);
    const char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = '\0';
    return 1;
}

/* The first value of `key` in the line (see field_after). */
static inline int field(const char *line, const char *key, char *out, size_t size) {
    return field_after(line, "", key, out, size);
}

#endif
