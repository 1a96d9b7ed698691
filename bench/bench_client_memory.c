/* Benchmark, not a test: the memory one client takes once it has talked to its provider, beside libcurl
 * alone doing the same. In a fresh process each, COUNT clients (telenorid_client_new) each refresh a token once
 * at the local token endpoint (bench/token_server.sh), keeping their pooled transfer and its connection, and
 * are kept; the reference is COUNT libcurl easy handles, each having made the same POST and keeping its
 * connection. The resident memory (VmRSS) they add after one warm-up, divided by COUNT, is the figure (the auth
 * state each refresh needed is freed before measuring). Best of 3 processes each.
 *
 *   bench_client_memory <token endpoint URL> [count] */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <telenorid.h>
#include <unistd.h>

#include "bench_results.h"

#define CLIENT_ID "bench-client"
#define REFRESH_TOKEN "rt-0123456789abcdefghijklmnopqrstuvwxyz"
#define FORM "grant_type=refresh_token&refresh_token=" REFRESH_TOKEN "&client_id=" CLIENT_ID

static const char *endpoint;
static char issuer[256];
static telenorid_config *config;

static long rss(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status && fgets(line, sizeof line, status))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
    if (status) fclose(status);
    return kb * 1024;
}

static void check(telenorid_status status, const char *what) {
    if (status == TELENORID_OK) return;
    fprintf(stderr, "bench_client_memory: %s failed: %s\n", what, telenorid_status_str(status));
    exit(1);
}

static void *one_client(void) {
    telenorid_client *client;
    telenorid_auth_state *state;
    char saved[1024];
    check(telenorid_client_new(config, &client), "client_new");
    snprintf(saved, sizeof saved,
             "{\"version\":1,\"issuer\":\"%s\",\"client_id\":\"" CLIENT_ID "\",\"access_token\":\"expired\","
             "\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"" REFRESH_TOKEN "\"}", issuer);
    check(telenorid_auth_state_restore(client, saved, &state), "auth_state_restore");
    check(telenorid_auth_state_refresh(state), "auth_state_refresh");
    telenorid_auth_state_free(state);
    return client;
}

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data, (void)user;
    return size * count;
}

static void *one_easy(void) {
    CURL *easy = curl_easy_init();
    if (!easy) exit(1);
    curl_easy_setopt(easy, CURLOPT_URL, endpoint);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, FORM);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    if (curl_easy_perform(easy) != CURLE_OK) exit(1);
    return easy;
}

/* Bytes per kept object in a fresh process: COUNT made after one warm-up. */
static double per_object(void *(*make)(void), int count) {
    int pipefd[2];
    if (pipe(pipefd)) exit(1);
    pid_t child = fork();
    if (child == 0) {
        void **kept = calloc((size_t)count + 1, sizeof *kept);
        kept[0] = make();
        long before = rss();
        for (int i = 1; i <= count; i++) kept[i] = make();
        double bytes = (double)(rss() - before) / count;
        if (write(pipefd[1], &bytes, sizeof bytes) != sizeof bytes) _exit(1);
        _exit(0);
    }
    double bytes = -1;
    if (read(pipefd[0], &bytes, sizeof bytes) != sizeof bytes) exit(1);
    waitpid(child, NULL, 0);
    close(pipefd[0]);
    close(pipefd[1]);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    endpoint = argv[1];
    int count = argc > 2 ? atoi(argv[2]) : 200;
    const char *path = strstr(endpoint + strlen("http://"), "/");
    snprintf(issuer, sizeof issuer, "%.*s", path ? (int)(path - endpoint) : (int)strlen(endpoint), endpoint);
    telenorid_config_builder *builder;
    check(telenorid_config_builder_new(&builder), "config_builder_new");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, issuer), "set issuer");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, CLIENT_ID), "set client_id");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, "com.example.app:/oauth2redirect"),
          "set redirect_uri");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT, endpoint), "set token_endpoint");
    check(telenorid_config_builder_build(builder, &config), "config_builder_build");
    telenorid_config_builder_free(builder);
    curl_global_init(CURL_GLOBAL_DEFAULT);

    double lib = 1e18, curl = 1e18;
    for (int round = 0; round < 3; round++) {
        double a = per_object(one_client, count), b = per_object(one_easy, count);
        if (a < lib) lib = a;
        if (b < curl) curl = b;
    }
    printf("memory per client after one refresh, kept with its connection (VmRSS added by %d, best of 3):\n", count);
    printf("  %-44s %10.0f B\n  %-44s %10.0f B\n  %-44s %10.0f B\n", "libtelenorid client", lib,
           "libcurl easy handle alone, same POST", curl, "difference", lib - curl);
    bench_record("memory_client", lib, curl);
    telenorid_config_free(config);
    return 0;
}
