/* The line authentication section of include/telenorid.h from C: arguments (NULL everywhere, _free(NULL),
 * outputs untouched on error), a whole exchange against the Aloha stand-in (Tests/support/aloha_server.py,
 * started as a child process), the socket hook with its user data, refusal and "not on cellular", fault
 * modes leaving the request without aloha_token, and one handle shared by several threads. Then, under a
 * host name (a private mount namespace whose /etc/hosts names aloha.test 127.0.0.2; skipped when that
 * cannot be made): the host resolver (the exchange reaches only its address, 127.0.0.3), no proxy whether
 * configured or in the environment while the client's discovery does use the configured one, and the
 * margin at its boundary. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
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

/* ---- Under a host name ---- */

static char named_base[256], named_ca[512], proxy_url[256];
static pid_t named_pid;
static FILE *named_in, *named_out;
static char stats_line[65536];

/* A private mount namespace whose /etc/hosts says aloha.test is 127.0.0.2; 0 when that can't be made. */
static int private_hosts(void) {
    char path[] = "/tmp/telenorid-hosts-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    const char *hosts = "127.0.0.1 localhost\n::1 localhost\n127.0.0.2 aloha.test\n";
    int ok = write(fd, hosts, strlen(hosts)) == (ssize_t)strlen(hosts);
    close(fd);
    /* The source and type are ignored for these two, but valgrind checks them as strings: "none". */
    ok = ok && unshare(CLONE_NEWNS) == 0 && mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0 &&
         mount(path, "/etc/hosts", "none", MS_BIND, NULL) == 0;
    unlink(path); /* the bind mount keeps the file */
    return ok;
}

static int start_named(void) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return 0;
    named_pid = fork();
    if (named_pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execlp("python3", "python3", "Tests/support/aloha_server.py", "--host", "aloha.test", "--address",
               "127.0.0.2", "--address", "127.0.0.3", "--proxy", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    named_in = fdopen(in[1], "w");
    named_out = fdopen(out[0], "r");
    char line[2048];
    if (!named_in || !named_out || fgets(line, sizeof line, named_out) == NULL) return 0;
    char *b = strstr(line, "\"base\": \""), *c = strstr(line, "\"ca_file\": \""), *p = strstr(line, "\"proxy\": \"");
    return b && c && p && sscanf(b + 9, "%255[^\"]", named_base) == 1 && sscanf(c + 12, "%511[^\"]", named_ca) == 1 &&
           sscanf(p + 10, "%255[^\"]", proxy_url) == 1;
}

static void stop_named(void) {
    if (named_in) fclose(named_in);
    if (named_out) fclose(named_out);
    if (named_pid > 0) waitpid(named_pid, NULL, 0);
}

/* The stand-in's stats as one JSON line (see aloha_server.py). */
static const char *named_stats(void) {
    stats_line[0] = 0;
    if (fputs("stats\n", named_in) < 0 || fflush(named_in) != 0 || !fgets(stats_line, sizeof stats_line, named_out))
        stats_line[0] = 0;
    return stats_line;
}

/* The "addresses" object of `mode` in the stats, e.g. {"127.0.0.3": 3}; "" when the mode saw nothing. */
static void addresses_of(const char *mode, char *out, size_t size) {
    char key[128];
    snprintf(key, sizeof key, "\"%s\": {", mode);
    const char *entry = strstr(named_stats(), key);
    const char *addresses = entry ? strstr(entry, "\"addresses\": {") : NULL;
    out[0] = 0;
    if (addresses) {
        size_t length = strcspn(addresses + 14, "}");
        snprintf(out, size, "%.*s", (int)(length + 1 < size ? length : size - 1), addresses + 14);
    }
}

static telenorid_config *named_config(const char *mode, const char *issuer_path) {
    char url[400], issuer[400];
    snprintf(url, sizeof url, "%s/%s", named_base, mode);
    snprintf(issuer, sizeof issuer, "%s/%s", named_base, issuer_path);
    telenorid_config_builder *b = NULL;
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, "app"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_REDIRECT_URI, "app:/cb"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CA_FILE, named_ca));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ALOHA_URL, url));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_PROXY, proxy_url));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &config));
    telenorid_config_builder_free(b);
    return config;
}

struct resolver_state {
    const char *answer;
    int32_t verdict;
    int calls;
    int ports[4];
    char host[64];
};

static int32_t resolver(void *user_data, const char *host, int32_t port, uint8_t *out, size_t out_size) {
    struct resolver_state *state = user_data;
    if (state->calls < 4) state->ports[state->calls] = port;
    state->calls++;
    snprintf(state->host, sizeof state->host, "%s", host);
    CHECK(out_size == TELENORID_RESOLVER_ANSWER_MAX);
    snprintf((char *)out, out_size, "%s", state->answer);
    return state->verdict;
}

static void test_resolver(void) {
    char seen[256];
    telenorid_config *config = named_config("system", "x");
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_set_resolver(NULL, resolver, NULL));
    /* Without a resolver the system's answer (the private /etc/hosts) is used, as before. */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    addresses_of("system", seen, sizeof seen);
    CHECK_STR("\"127.0.0.2\": 3", seen);
    telenorid_line_authenticator_free(line_auth);

    config = named_config("resolved", "x");
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    telenorid_config_free(config);
    struct resolver_state state = {"127.0.0.3", TELENORID_SOCKET_ALLOW, 0, {0}, ""};
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_resolver(line_auth, resolver, &state));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    addresses_of("resolved", seen, sizeof seen);
    CHECK_STR("\"127.0.0.3\": 3", seen); /* every request, and only the resolver's address */
    CHECK(state.calls == 3);                 /* prepare, inject, session: each looked up */
    CHECK_STR("aloha.test", state.host);
    int https_port = atoi(strrchr(named_base, ':') + 1);
    CHECK(state.ports[0] == https_port && state.ports[1] != https_port && state.ports[2] == https_port);
    /* Several addresses, commas or spaces: the first that answers is used. */
    state.answer = "127.0.0.3, ::ffff:127.0.0.3";
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));

    /* The resolver's refusals, and answers that are not address lists. */
    state.verdict = TELENORID_SOCKET_NOT_CELLULAR;
    CHECK_STATUS(TELENORID_E_LINE_AUTH_UNAVAILABLE, telenorid_line_authenticator_run(line_auth));
    CHECK_LAST_ERROR(TELENORID_E_LINE_AUTH_UNAVAILABLE, "no cellular network");
    state.verdict = TELENORID_SOCKET_REFUSE;
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_line_authenticator_run(line_auth));
    CHECK_LAST_ERROR(TELENORID_E_NETWORK, "could not resolve aloha.test");
    state.verdict = 77;
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_line_authenticator_run(line_auth));
    state.verdict = TELENORID_SOCKET_ALLOW;
    const char *bad[] = {"", "aloha.test", "127.0.0.3:443", "127.0.0.03", "[::1]", "fe80::1%eth0", "1.2.3.4;x",
                         "1:2:3:4:5:6:7:8:9", "1::2::3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        state.answer = bad[i];
        telenorid_status status = telenorid_line_authenticator_run(line_auth);
        CHECK(status == TELENORID_E_INVALID_ARGUMENT || (i == 0 && status == TELENORID_E_NETWORK));
    }
    addresses_of("resolved", seen, sizeof seen);
    CHECK_STR("\"127.0.0.3\": 6", seen); /* none of the failures reached anything */

    /* Removed: the system resolver again, not the resolver's answer kept from before. */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_resolver(line_auth, NULL, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth));
    addresses_of("resolved", seen, sizeof seen);
    CHECK_STR("\"127.0.0.3\": 6, \"127.0.0.2\": 3", seen);
    telenorid_line_authenticator_free(line_auth);
}

static void test_no_proxy(void) {
    /* The configured proxy, and every proxy variable libcurl knows, point at the capturing proxy. */
    const char *variables[] = {"http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"};
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++) setenv(variables[i], proxy_url, 1);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
    telenorid_config *config = named_config("unproxied", "provider");
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_apply(line_auth, request));
    char seen[256];
    addresses_of("unproxied", seen, sizeof seen);
    CHECK_STR("\"127.0.0.2\": 3", seen);
    CHECK(strstr(named_stats(), "\"_proxy\"") == NULL); /* the proxy saw nothing */
    /* The same configuration's client does go through the configured proxy (which refuses it). */
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK(telenorid_client_discover(client) != TELENORID_OK);
    CHECK_CONTAINS(named_stats(), "\"_proxy\": [\"CONNECT aloha.test:");
    telenorid_client_free(client);
    telenorid_auth_request_free(request);
    telenorid_line_authenticator_free(line_auth);
    telenorid_config_free(config);
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++) unsetenv(variables[i]);
}

static void test_margin(void) {
    telenorid_config *config = named_config("margin", "x");
    telenorid_line_authenticator *line_auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_new(config, &line_auth));
    telenorid_config_free(config);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_set_margin(NULL, 10));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_set_margin(line_auth, -1));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_line_authenticator_set_margin(line_auth, 86401));
    int64_t seconds = -1;
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_run(line_auth)); /* exp 300 */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds > 260 && seconds <= 270); /* the default margin, 30 s */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_margin(line_auth, 297));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds >= 1 && seconds <= 3);
    /* At the boundary, 300 s left and a margin of 300: expired, and apply makes a fresh session. */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_margin(line_auth, 300));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_valid_for(line_auth, &seconds));
    CHECK(seconds == 0);
    config = named_config("margin", "x");
    telenorid_auth_request *request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_apply(line_auth, request));
    CHECK_CONTAINS(named_stats(), "\"margin\": {\"prepare\": 2,");
    /* Margin 0: the session just made is reused. */
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_set_margin(line_auth, 0));
    telenorid_auth_request_free(request);
    request = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(config, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_line_authenticator_apply(line_auth, request));
    CHECK_CONTAINS(named_stats(), "\"margin\": {\"prepare\": 2,");
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    telenorid_line_authenticator_free(line_auth);
}

static void test_under_host_name(void) {
    if (!private_hosts()) {
        printf("test_line_auth: no private /etc/hosts (needs root and mount namespaces): host-name tests skipped\n");
        return;
    }
    if (!CHECK(start_named())) {
        stop_named();
        return;
    }
    test_resolver();
    test_no_proxy();
    test_margin();
    stop_named();
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
    test_under_host_name();
    return finish_checks();
}
