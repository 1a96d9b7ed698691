/* Client-initiated backchannel authentication (OpenID CIBA Core 1.0) from C. First the contract with no
 * provider (NULLs, a handle of another kind, outputs untouched on failure, the login hint forms, the one-hint
 * rule before any request); then poll and ping modes against glewlwyd 2.7.5 (Tests/support/glewlwyd_provider.py
 * serve, started here), whose user approves or denies through its command line in a child process, and whose
 * pings reach a notification endpoint this program serves on a thread and hands to
 * telenorid_backchannel_auth_handle_ping().
 * Ends with "N passed, M failed"; leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <telenorid.h>
#include "child_process.h"
#include "check.h"
#include "status_checks.h"

#define LOGIN_HINT "{\"username\":\"alice\"}" /* glewlwyd takes only its own JSON form */

static struct {
    char issuer[256], poll_client[64], ping_client[64], secret[64];
    pid_t pid;
} provider;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void last_oauth_error(char *out, size_t size) {
    telenorid_error *error = telenorid_error_last();
    const char *value = error ? telenorid_error_oauth_error(error) : NULL;
    snprintf(out, size, "%s", value ? value : "");
    telenorid_error_free(error);
}

static telenorid_config *config(const char *issuer, const char *client_id, const char *secret, const char *mode) {
    telenorid_config_builder *b = NULL;
    telenorid_config *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, issuer));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, client_id));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, secret));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_BACKCHANNEL_TOKEN_DELIVERY_MODE, mode));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &out));
    telenorid_config_builder_free(b);
    return out;
}

/* ---- without a provider ---------------------------------------------------------------------------------- */

static void test_login_hints(void) {
    char *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_phone_number("+4790000000", &out));
    CHECK_STR("tel:+4790000000", out);
    telenorid_string_free(out);
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_ip_port("2001:db8::7", 5555, &out));
    CHECK_STR("ipport:[2001:db8::7]:5555", out);
    telenorid_string_free(out);
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_operator_token("T0k-en", &out));
    CHECK_STR("operatortoken:T0k-en", out);
    telenorid_string_free(out);

    out = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_phone_number("004790000000", &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_ip_port("203.0.113.7", 0, &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_ip_port("203.0.113.7", -1, &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_ip_port("[::1]", 80, &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_operator_token("", &out));
    CHECK((void *)out == SENTINEL);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_phone_number(NULL, &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_phone_number("+47", NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_ip_port(NULL, 80, &out));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_operator_token(NULL, &out));

    telenorid_login_hint_form form = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_get_form("ipport:203.0.113.7:5555", &form));
    CHECK(form == TELENORID_LOGIN_HINT_IP_PORT);
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_get_form("tel:+4790000000", &form));
    CHECK(form == TELENORID_LOGIN_HINT_PHONE_NUMBER);
    CHECK_STATUS(TELENORID_OK, telenorid_login_hint_get_form("operatortoken:x", &form));
    CHECK(form == TELENORID_LOGIN_HINT_OPERATOR_TOKEN);
    form = 77;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_get_form("alice@example.com", &form));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "none of the forms");
    CHECK(form == 77);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_get_form(NULL, &form));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_login_hint_get_form("tel:+47", NULL));
}

static void test_contract(void) {
    /* Nothing listens on port 9: a request that left would fail with TELENORID_E_NETWORK. */
    telenorid_config *cfg = config("http://127.0.0.1:9/op", "c", "s", "poll");
    telenorid_client *client = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_backchannel_auth *auth = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(cfg, &request));

    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(client, request, &auth));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "exactly one of login_hint");
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, "tel:+4790000000"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ID_TOKEN_HINT, "a.b.c"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(client, request, &auth));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_ID_TOKEN_HINT, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, "profile"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(client, request, &auth));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "openid");
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_SCOPE, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_REQUESTED_EXPIRY, "0"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_auth_request_set(request, TELENORID_AUTH_USER_CODE, ""));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_USER_CODE, "1234"));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_USER_CODE, NULL));
    /* No discovery document there, and no endpoint configured. */
    CHECK_STATUS(TELENORID_E_NETWORK, telenorid_client_start_backchannel_authentication(client, request, &auth));
    CHECK((void *)auth == SENTINEL);

    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(NULL, request, &auth));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(client, NULL, &auth));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_client_start_backchannel_authentication(client, request, NULL));
    CHECK((void *)auth == SENTINEL);

    /* A handle of another kind where a backchannel authentication belongs. */
    telenorid_backchannel_auth *wrong = (telenorid_backchannel_auth *)(void *)client;
    char *text = SENTINEL;
    int64_t expires = 7;
    int32_t interval = 7;
    telenorid_auth_state *state = SENTINEL;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_id(wrong, &text));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "another kind");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_expires_at(wrong, &expires));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_interval(wrong, &interval));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_handle_ping(wrong, "Bearer x", "{}"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_wait(wrong, &state));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_id(NULL, &text));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_expires_at(NULL, &expires));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_interval(NULL, &interval));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_handle_ping(NULL, "Bearer x", "{}"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_auth_wait(NULL, &state));
    CHECK((void *)text == SENTINEL && expires == 7 && interval == 7 && (void *)state == SENTINEL);
    telenorid_backchannel_auth_free(NULL);

    telenorid_auth_request_free(request);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
}

/* ---- the client's notification endpoint (CIBA Core §10.2) ------------------------------------------------ */

static struct {
    int socket;
    int port;
    telenorid_backchannel_auth *target;
    telenorid_status verdict;
    int served;
    double served_at;
} notify = {-1, 0, NULL, -1, 0, 0};

/* The header line `name` (with its CRLF before and colon after) in `request`, in any case. */
static const char *find_header(const char *request, const char *name) {
    for (const char *at = request; *at; at++)
        if (strncasecmp(at, name, strlen(name)) == 0) return at;
    return NULL;
}

/* Serves one ping: reads the request, hands its Authorization header and body to the target, answers 204 when
 * the library takes it and 401 otherwise. */
static void *serve_one_ping(void *unused) {
    (void)unused;
    int connection = accept(notify.socket, NULL, NULL);
    if (connection < 0) return NULL;
    char request[8192];
    size_t used = 0;
    char *body = NULL;
    long length = -1;
    while (used < sizeof request - 1) {
        ssize_t got = read(connection, request + used, sizeof request - 1 - used);
        if (got <= 0) break;
        used += (size_t)got;
        request[used] = '\0';
        char *end = strstr(request, "\r\n\r\n");
        if (end && length < 0) {
            body = end + 4;
            const char *header = find_header(request, "\r\ncontent-length:");
            length = header ? strtol(header + 17, NULL, 10) : 0;
        }
        if (body && (long)(request + used - body) >= length) break;
    }
    char authorization[1024] = "";
    const char *header = find_header(request, "\r\nauthorization:");
    if (header) sscanf(header + 16, " %1023[^\r\n]", authorization);
    if (body && length >= 0 && length < (long)(request + used - body)) body[length] = '\0';
    notify.verdict = telenorid_backchannel_auth_handle_ping(notify.target, authorization, body ? body : "");
    const char *answer = notify.verdict == TELENORID_OK ? "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"
                                                        : "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n";
    if (write(connection, answer, strlen(answer)) < 0) notify.verdict = -2;
    close(connection);
    notify.served_at = now_seconds();
    notify.served = 1;
    return NULL;
}

static int listen_for_pings(void) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    notify.socket = socket(AF_INET, SOCK_STREAM, 0);
    if (notify.socket < 0 || bind(notify.socket, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(notify.socket, 4) != 0 || getsockname(notify.socket, (struct sockaddr *)&address, &size) != 0)
        return 0;
    notify.port = ntohs(address.sin_port);
    return 1;
}

/* ---- against glewlwyd --------------------------------------------------------------------------------------- */

static int start_provider(void) {
    char endpoint[128];
    snprintf(endpoint, sizeof endpoint, "http://127.0.0.1:%d/notify", notify.port);
    char *argv[] = {"python3", "Tests/support/glewlwyd_provider.py", "serve", endpoint, NULL};
    char line[8192];
    if (!first_line(argv, line, sizeof line, &provider.pid)) return 0;
    return field(line, "\"issuer\": \"", provider.issuer, sizeof provider.issuer) &&
           field(line, "\"ciba_poll_client_id\": \"", provider.poll_client, sizeof provider.poll_client) &&
           field(line, "\"ciba_ping_client_id\": \"", provider.ping_client, sizeof provider.ping_client) &&
           field(line, "\"ciba_client_secret\": \"", provider.secret, sizeof provider.secret);
}

static void stop_provider(void) {
    if (provider.pid > 0) {
        kill(provider.pid, SIGTERM);
        waitpid(provider.pid, NULL, 0);
    }
}

/* The user approves (or denies) the client's pending request through glewlwyd's user API. */
static int user_decides(const char *client_id, int approve) {
    char *argv[] = {"python3", "Tests/support/glewlwyd_provider.py", approve ? "approve-ciba" : "deny-ciba",
                    provider.issuer, (char *)client_id, NULL};
    char line[2048];
    return first_line(argv, line, sizeof line, NULL) &&
           strstr(line, approve ? "ciba_message=complete" : "ciba_message=cancelled") != NULL;
}

static telenorid_backchannel_auth *start(telenorid_client *client, const telenorid_config *cfg) {
    telenorid_auth_request *request = NULL;
    telenorid_backchannel_auth *auth = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_new(cfg, &request));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, LOGIN_HINT));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_request_set(request, TELENORID_AUTH_BINDING_MESSAGE, "W4SCT"));
    CHECK_STATUS(TELENORID_OK, telenorid_client_start_backchannel_authentication(client, request, &auth));
    telenorid_auth_request_free(request);
    return auth;
}

static void check_signed_in(telenorid_auth_state *state, const char *audience) {
    char *claims = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS, &claims));
    char expected[128];
    snprintf(expected, sizeof expected, "\"aud\":\"%s\"", audience);
    CHECK_CONTAINS(claims, expected);
    CHECK_CONTAINS(claims, provider.issuer);
    telenorid_string_free(claims);
}

static void test_poll_mode(void) {
    telenorid_config *cfg = config(provider.issuer, provider.poll_client, provider.secret, "poll");
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    telenorid_backchannel_auth *auth = start(client, cfg);
    if (!CHECK(auth != NULL)) goto done;
    char *id = NULL;
    int64_t expires_at = 0;
    int32_t interval = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_auth_id(auth, &id));
    CHECK(id != NULL && id[0] != '\0');
    telenorid_string_free(id);
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_auth_expires_at(auth, &expires_at));
    /* + 601: time() reads the kernel's coarse clock, which across a second boundary can be a tick behind the
     * CLOCK_REALTIME the library reads. */
    CHECK(expires_at > (int64_t)time(NULL) + 590 && expires_at <= (int64_t)time(NULL) + 601);
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_auth_interval(auth, &interval));
    CHECK(interval == 5);
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_backchannel_auth_handle_ping(auth, "Bearer x", "{}"));

    CHECK(user_decides(provider.poll_client, 1));
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_auth_wait(auth, &state));
    if (state) check_signed_in(state, provider.poll_client);
    telenorid_auth_state *again = SENTINEL;
    CHECK_STATUS(TELENORID_E_CONSUMED, telenorid_backchannel_auth_wait(auth, &again));
    CHECK((void *)again == SENTINEL);
    telenorid_auth_state_free(state);
    telenorid_backchannel_auth_free(auth);

    /* The user says no: AUTHORIZATION_ERROR access_denied, nothing written. */
    auth = start(client, cfg);
    CHECK(user_decides(provider.poll_client, 0));
    state = SENTINEL;
    CHECK_STATUS(TELENORID_E_AUTHORIZATION_ERROR, telenorid_backchannel_auth_wait(auth, &state));
    char oauth_error[64];
    last_oauth_error(oauth_error, sizeof oauth_error);
    CHECK_STR("access_denied", oauth_error);
    CHECK((void *)state == SENTINEL);
    telenorid_backchannel_auth_free(auth);
done:
    telenorid_client_free(client);
    telenorid_config_free(cfg);
}

static void test_ping_mode(void) {
    telenorid_config *cfg = config(provider.issuer, provider.ping_client, provider.secret, "ping");
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client));
    telenorid_backchannel_auth *auth = start(client, cfg);
    if (!CHECK(auth != NULL)) goto done;
    CHECK_STATUS(TELENORID_E_STATE_MISMATCH,
                 telenorid_backchannel_auth_handle_ping(auth, "Bearer not-the-token", "{\"auth_req_id\":\"x\"}"));
    notify.target = auth;
    pthread_t server;
    CHECK(pthread_create(&server, NULL, serve_one_ping, NULL) == 0);
    CHECK(user_decides(provider.ping_client, 1)); /* glewlwyd pings before it answers the user */
    pthread_join(server, NULL);
    CHECK(notify.served && notify.verdict == TELENORID_OK);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_auth_wait(auth, &state));
    /* The ping ended the first sleep: no 5 s interval was waited out. */
    CHECK(now_seconds() - notify.served_at < 4.5);
    if (state) check_signed_in(state, provider.ping_client);
    telenorid_auth_state_free(state);
    telenorid_backchannel_auth_free(auth);
done:
    telenorid_client_free(client);
    telenorid_config_free(cfg);
}

int main(void) {
    test_login_hints();
    test_contract();
    if (CHECK(listen_for_pings()) && CHECK(start_provider())) {
        test_poll_mode();
        test_ping_mode();
    }
    stop_provider();
    if (notify.socket >= 0) close(notify.socket);
    return finish_checks();
}
