/* Benchmark, not a test: refresh-token round trips from C against a local token endpoint
 * (bench/token_server.sh: one nginx process answering every POST with the same refresh response),
 * libtelenorid's telenorid_auth_state_refresh() beside the same POST made with libcurl directly.
 *
 *   bench_refresh <token endpoint URL> <server pid> [round trips per round] [rounds]
 *
 * Both keep one connection alive across requests. The library's round trip does more than libcurl's:
 * it builds the form, parses and checks the JSON response, swaps the tokens in atomically and wipes the
 * old ones; libcurl alone only moves the bytes. The figure is CPU time per round trip, this process's
 * (every thread of it) plus the server's (its schedstat run time), so neither waiting on the loopback nor
 * other load counts; wall clock is printed beside it. Best round of several with the two interleaved round
 * by round; the goal is the library at >= 0.7x libcurl's speed. "libcurl alone" is bench/libcurl_floor.h
 * over libcurl.so.4, the libcurl libtelenorid itself is linked against: the floor bench_refresh.py uses. */
#define _GNU_SOURCE
#include <telenorid.h>
#include <time.h>

#include "bench_results.h"
#include "libcurl_floor.h"

#define CLIENT_ID "bench-client"
#define REFRESH_TOKEN "rt-0123456789abcdefghijklmnopqrstuvwxyz"

static uint64_t now_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void check(telenorid_status status, const char *what) {
    if (status == TELENORID_OK) return;
    telenorid_error *error = telenorid_error_last();
    fprintf(stderr, "bench_refresh: %s failed: %s (%s)\n", what, telenorid_error_message(error), telenorid_status_str(status));
    telenorid_error_free(error);
    exit(1);
}

typedef struct { double wall_us, cpu_us; } timing;

static timing timed(void (*operation)(int), int n) {
    uint64_t wall = now_ns(CLOCK_MONOTONIC), cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID) + floor_server_ns();
    operation(n);
    return (timing){(double)(now_ns(CLOCK_MONOTONIC) - wall) / n / 1000.0,
                    (double)(now_ns(CLOCK_PROCESS_CPUTIME_ID) + floor_server_ns() - cpu) / n / 1000.0};
}

/* ---- libtelenorid ---------------------------------------------------------------------------------- */
static telenorid_auth_state *state;

static void lib_refresh(int n) {
    for (int i = 0; i < n; i++) check(telenorid_auth_state_refresh(state), "auth_state_refresh");
}

/* ---- libcurl alone --------------------------------------------------------------------------------- */
static void curl_refresh(int n) { floor_round_trips(n); }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bench_refresh <token endpoint URL> <server pid> [round trips per round] [rounds]\n");
        return 2;
    }
    const char *endpoint = argv[1];
    floor_watch_server(argv[2]);
    int n = argc > 3 ? atoi(argv[3]) : 2000;
    int rounds = argc > 4 ? atoi(argv[4]) : 5;
    if (n <= 0 || rounds <= 0) return 2;

    /* The issuer is the endpoint's origin: only the token endpoint is used, so nothing is discovered. */
    char issuer[256];
    const char *path = strstr(endpoint + strlen("http://"), "/");
    snprintf(issuer, sizeof issuer, "%.*s", path ? (int)(path - endpoint) : (int)strlen(endpoint), endpoint);
    telenorid_config_builder *builder;
    telenorid_config *config;
    telenorid_client *client;
    check(telenorid_config_builder_new(&builder), "config_builder_new");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, issuer), "set issuer");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, CLIENT_ID), "set client_id");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, "com.example.app:/oauth2redirect"), "set redirect_uri");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT, endpoint), "set token_endpoint");
    check(telenorid_config_builder_build(builder, &config), "config_builder_build");
    telenorid_config_builder_free(builder);
    check(telenorid_client_new(config, &client), "client_new");
    char saved[1024];
    snprintf(saved, sizeof saved,
             "{\"version\":1,\"issuer\":\"%s\",\"client_id\":\"" CLIENT_ID "\",\"access_token\":\"expired\","
             "\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"" REFRESH_TOKEN "\"}", issuer);
    check(telenorid_auth_state_restore(client, saved, &state), "auth_state_restore");

    floor_open("libcurl.so.4", endpoint, "grant_type=refresh_token&refresh_token=" REFRESH_TOKEN "&client_id=" CLIENT_ID);

    /* Warm both up: connections open, caches filled. */
    lib_refresh(50);
    curl_refresh(50);
    timing lib = {1e30, 1e30}, raw = {1e30, 1e30};
    for (int round = 0; round < rounds; round++) {
        timing a = timed(lib_refresh, n), b = timed(curl_refresh, n);
        if (a.wall_us < lib.wall_us) lib.wall_us = a.wall_us;
        if (a.cpu_us < lib.cpu_us) lib.cpu_us = a.cpu_us;
        if (b.wall_us < raw.wall_us) raw.wall_us = b.wall_us;
        if (b.cpu_us < raw.cpu_us) raw.cpu_us = b.cpu_us;
    }
    printf("refresh round trip from C, µs/op (best of %d rounds of %d; loopback nginx token endpoint)\n", rounds, n);
    printf("  %-44s %10s %18s\n", "", "wall", "client+server CPU");
    printf("  %-44s %10.1f %18.1f\n", "libtelenorid telenorid_auth_state_refresh", lib.wall_us, lib.cpu_us);
    printf("  %-44s %10.1f %18.1f\n", "libcurl alone (same POST, no parsing)", raw.wall_us, raw.cpu_us);
    printf("  %-44s %10.2f %18.2f\n", "speed libtelenorid / libcurl", raw.wall_us / lib.wall_us, raw.cpu_us / lib.cpu_us);
    bench_record("c_refresh", lib.cpu_us, raw.cpu_us);

    floor_close();
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
    return 0;
}
