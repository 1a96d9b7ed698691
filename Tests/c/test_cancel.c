/* Cancellation from another thread (telenorid_client_cancel, telenorid_loopback_listener_cancel): a blocked call
 * returns TELENORID_E_CANCELLED within 100 ms, and the handle works afterwards. Against Tests/c/stub_server.h,
 * whose answer is held back so the client's call blocks. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <telenorid.h>
#include "check.h"
/* Only part of the stand-in's helpers are needed here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "stub_server.h"
#pragma GCC diagnostic pop

#define CHECK_STATUS(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call " == " #expected)

static struct stub_server server;
static char issuer[64];

static int64_t now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (int64_t)time.tv_sec * 1000 + time.tv_nsec / 1000000;
}

/* One blocking call on another thread: its status and when it returned. */
struct call {
    pthread_t thread;
    telenorid_client *client;
    telenorid_loopback_listener *listener;
    telenorid_status status;
    int64_t ended_ms;
};

static void *discover(void *arg) {
    struct call *call = arg;
    call->status = telenorid_client_discover(call->client);
    call->ended_ms = now_ms();
    return NULL;
}

static void *wait_for_redirect(void *arg) {
    struct call *call = arg;
    char *url = NULL;
    call->status = telenorid_loopback_listener_wait(call->listener, 20000, &url);
    call->ended_ms = now_ms();
    telenorid_string_free(url);
    return NULL;
}

static void serve_discovery(int delay_ms) {
    char body[1024];
    snprintf(body, sizeof body,
             "{\"issuer\":\"%s\",\"authorization_endpoint\":\"%s/authorize\",\"token_endpoint\":\"%s/token\","
             "\"jwks_uri\":\"%s/jwks\",\"response_types_supported\":[\"code\"],"
             "\"code_challenge_methods_supported\":[\"S256\"],\"revocation_endpoint\":\"%s/revoke\"}",
             issuer, issuer, issuer, issuer, issuer);
    stub_set(&server, "GET", "/.well-known/openid-configuration", 200, "application/json", body, NULL, delay_ms);
}

static telenorid_client *make_client(void) {
    telenorid_config_builder *b = NULL;
    telenorid_config *config = NULL;
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "tnn-example"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "telenorid-example://cb/"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_TIMEOUT_MS, "20000"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    telenorid_config_builder_free(b);
    telenorid_config_free(config);
    return client;
}

/* Discovery blocks on an answer held back for 1.5 s; a cancel from this thread ends it at once. Calls after
 * the cancel (and a cancel with nothing in flight) run normally on the same client. */
static void test_client_cancel(void) {
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_cancel(NULL));
    CHECK(telenorid_status_is_transient(TELENORID_E_CANCELLED) == 0);
    CHECK_STR("cancelled", telenorid_status_str(TELENORID_E_CANCELLED));
    telenorid_client *client = make_client();
    if (!client) return;
    serve_discovery(1500);
    struct call call = {0};
    call.client = client;
    if (!CHECK(pthread_create(&call.thread, NULL, discover, &call) == 0)) return;
    stub_sleep_ms(300);
    int64_t cancelled_ms = now_ms();
    CHECK_STATUS(TELENORID_OK, telenorid_client_cancel(client));
    pthread_join(call.thread, NULL);
    CHECK(call.status == TELENORID_E_CANCELLED);
    if (!CHECK(call.ended_ms - cancelled_ms < 100)) fprintf(stderr, "  took %lld ms\n", (long long)(call.ended_ms - cancelled_ms));

    serve_discovery(0);
    CHECK_STATUS(TELENORID_OK, telenorid_client_cancel(client)); /* nothing in flight: cancels nothing to come */
    CHECK_STATUS(TELENORID_OK, telenorid_client_discover(client));
    CHECK(stub_hits(&server, "GET", "/.well-known/openid-configuration") == 2);
    telenorid_client_free(client);
}

/* A wait cancelled from this thread returns at once; the listener waits again, to its own timeout. */
static void test_loopback_cancel(void) {
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_loopback_listener_cancel(NULL));
    telenorid_loopback_listener *listener = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_new(0, NULL, &listener))) return;
    struct call call = {0};
    call.listener = listener;
    if (!CHECK(pthread_create(&call.thread, NULL, wait_for_redirect, &call) == 0)) return;
    stub_sleep_ms(200);
    int64_t cancelled_ms = now_ms();
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_cancel(listener));
    pthread_join(call.thread, NULL);
    CHECK(call.status == TELENORID_E_CANCELLED);
    if (!CHECK(call.ended_ms - cancelled_ms < 100)) fprintf(stderr, "  took %lld ms\n", (long long)(call.ended_ms - cancelled_ms));

    char *url = NULL;
    int64_t start = now_ms();
    CHECK_STATUS(TELENORID_E_TIMEOUT, telenorid_loopback_listener_wait(listener, 300, &url));
    CHECK(now_ms() - start >= 290);
    CHECK(url == NULL);
    telenorid_loopback_listener_free(listener);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (!CHECK(stub_start(&server) == 0)) return finish_checks();
    snprintf(issuer, sizeof issuer, "http://127.0.0.1:%u", (unsigned)server.port);
    test_client_cancel();
    test_loopback_cancel();
    stub_stop(&server);
    return finish_checks();
}
