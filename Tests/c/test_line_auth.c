/* The line authentication section of include/telenorid.h from C: arguments (NULL everywhere, _free(NULL),
 * outputs untouched on error), a whole exchange against the Aloha stand-in (Tests/support/aloha_server.py,
 * started as a child process), the socket hook with its user data, refusal and "not on cellular", fault
 * modes leaving the request without aloha_token, and one handle shared by several threads. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "status_checks.h"


/* The last error's message contains `words`. */
static void check_last_error(telenorid_status status, const char *words, int line) {
    telenorid_error *error = telenorid_error_last();
    check_report(error != NULL && telenorid_error_status(error) == status, __FILE__, line, "last error status");
    if (error) check_contains_at(telenorid_error_message(error), words, __FILE__, line);
    telenorid_error_free(error);
}

static char base[256], ca_file[512];
static pid_t server_pid;
static int server_stdin = -1;

/* Starts the stand-in; reads its JSON line for the base URL and CA file. */
static int start_aloha(void) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return 0;
    server_pid = fork();
    if (server_pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execlp("python3", "python3", "Tests/support/aloha_server.py", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    server_stdin = in[1];
    FILE *reader = fdopen(out[0], "r");
    char line[2048];
    int ok = reader && fgets(line, sizeof line, reader) != NULL;
    if (ok) {
        char *b = strstr(line, "\"base\": \""), *c = strstr(line, "\"ca_file\": \"");
        ok = b && c && sscanf(b + 9, "%255[^\"]", base) == 1 && sscanf(c + 12, "%511[^\"]", ca_file) == 1;
    }
    if (reader) fclose(reader);
    return ok;
}

static void stop_aloha(void) {
    if (server_stdin >= 0) close(server_stdin); /* the server exits when its stdin closes */
    if (server_pid > 0) waitpid(server_pid, NULL, 0);
}

static telenorid_config *config_for(const char *mode) {
    char url[400];
    snprintf(url, sizeof url, "%s/%s", base, mode);
    telenorid_config_builder *b = NULL;
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "https://id.example"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "app"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "app:/cb"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT,
                                                            "https://id.example/authorize"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CA_FILE, ca_file));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALOHA_URL, url));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_ALOHA_URL, &value));
    CHECK_STR(url, value);
    telenorid_string_free(value);
    telenorid_config_builder_free(b);
    return config;
}

/* The authorization URL `request` builds now (caller frees). */
static char *url_of(telenorid_auth_request *request) {
    telenorid_pending_auth *pending = NULL;
    char *url = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    CHECK_STATUS(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    telenorid_pending_auth_free(pending);
    return url;
}

struct hook_record {
    int calls, sockets;
    int32_t verdict;
};

static int32_t hook(void *user_data, int fd) {
    struct hook_record *record = user_data;
    struct stat info;
    record->calls++;
    if (fstat(fd, &info) == 0 && S_ISSOCK(info.st_mode)) record->sockets++;
    return record->verdict;
}

static void test_arguments(void) {
    telenorid_line_authenticator *sentinel = (telenorid_line_authenticator *)&sentinel, *out = sentinel;
    int64_t seconds = 42;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_new(NULL, &out));
    CHECK(out == sentinel);
    telenorid_config *config = config_for("ok");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_new(config, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_run(NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_valid_for(NULL, &seconds));
    CHECK(seconds == 42);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_set_socket_hook(NULL, hook, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_apply(NULL, NULL));
    /* A handle of another kind is refused, not misread. */
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_run((telenorid_line_authenticator *)config));
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_valid_for(line_auth, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_apply(line_auth, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds == 0);
    telenorid_line_authenticator_free(line_auth);
    telenorid_line_authenticator_free(NULL);
    telenorid_config_free(config);

    /* Without aloha_url line authentication is unavailable; an http Aloha is insecure. */
    telenorid_config_builder *b = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, "https://id.example"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "app"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "app:/cb"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    out = sentinel;
    CHECK_STATUS(TELENORID_E_LINE_AUTH_UNAVAILABLE, telenorid_line_authenticator_new(config, &out));
    check_last_error(TELENORID_E_LINE_AUTH_UNAVAILABLE, "aloha_url", __LINE__);
    CHECK(out == sentinel);
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALOHA_URL, "http://aloha.example/"));
    CHECK_STATUS(TELENORID_E_INSECURE, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    CHECK_STR("line authentication unavailable", telenorid_status_str(TELENORID_E_LINE_AUTH_UNAVAILABLE));
}

static void test_exchange_and_hook(void) {
    telenorid_config *config = config_for("c_ok");
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    struct hook_record record = {0, 0, TELENORID_SOCKET_ALLOW};
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_socket_hook(line_auth, hook, &record));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    CHECK(record.calls == 3 && record.sockets == 3); /* prepare, inject, session: each a fresh socket */
    int64_t seconds = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds > 250 && seconds <= 300);

    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_apply(line_auth, request));
    CHECK(record.calls == 3); /* the kept session was used: no new exchange */
    char *url = url_of(request);
    CHECK_CONTAINS(url, "aloha_token=");
    telenorid_string_free(url);
    CHECK_STATUS(TELENORID_E_PARAMETER_CONFLICT, telenorid_line_authenticator_apply(line_auth, request));
    telenorid_auth_request_free(request);

    /* Not on cellular: a distinct status; refused: a network error; the kept session stays. */
    record.verdict = TELENORID_SOCKET_NOT_CELLULAR;
    CHECK_STATUS(TELENORID_E_LINE_AUTH_UNAVAILABLE, telenorid_line_authenticator_run(line_auth));
    check_last_error(TELENORID_E_LINE_AUTH_UNAVAILABLE, "no cellular network", __LINE__);
    record.verdict = TELENORID_SOCKET_REFUSE;
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_line_authenticator_run(line_auth));
    check_last_error(TELENORID_E_NETWORK, "socket hook refused", __LINE__);
    record.verdict = 77; /* not one of the three: refuses */
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_line_authenticator_run(line_auth));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds > 250);
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_socket_hook(line_auth, NULL, NULL));
    int before = record.calls;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    CHECK(record.calls == before);
    telenorid_line_authenticator_free(line_auth);
    telenorid_config_free(config);
}

static void expect_failure(const char *mode, telenorid_status status, const char *words) {
    telenorid_config *config = config_for(mode);
    telenorid_line_authenticator *line_auth = NULL;
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    if (CHECK_STATUS(status, telenorid_line_authenticator_apply(line_auth, request))) check_last_error(status, words, __LINE__);
    char *url = url_of(request);
    CHECK(url != NULL && strstr(url, "aloha_token") == NULL);
    telenorid_string_free(url);
    telenorid_auth_request_free(request);
    telenorid_line_authenticator_free(line_auth);
    telenorid_config_free(config);
}

static void *run_thread(void *line_auth) {
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    return NULL;
}

static void test_threads(void) {
    telenorid_config *config = config_for("c_threads");
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    telenorid_config_free(config); /* the authenticator keeps what it needs */
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, run_thread, line_auth);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    int64_t seconds = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds > 250);
    telenorid_line_authenticator_free(line_auth);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (!CHECK(start_aloha())) {
        stop_aloha();
        return finish_checks();
    }
    test_arguments();
    test_exchange_and_hook();
    expect_failure("malformed_prepare", TELENORID_E_INVALID_RESPONSE, "not JSON");
    expect_failure("missing_inject", TELENORID_E_INVALID_RESPONSE, "injectPath");
    expect_failure("missing_exp", TELENORID_E_INVALID_RESPONSE, "exp");
    expect_failure("expired", TELENORID_E_INVALID_RESPONSE, "expired");
    expect_failure("redirect_http", TELENORID_E_INSECURE, "not https");
    expect_failure("redirect_other_host", TELENORID_E_INSECURE, "Aloha host");
    expect_failure("two_redirects", TELENORID_E_INVALID_RESPONSE, "second time");
    expect_failure("status_500", TELENORID_E_TEMPORARILY_UNAVAILABLE, "HTTP 500");
    test_threads();
    stop_aloha();
    return finish_checks();
}
