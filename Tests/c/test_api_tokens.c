/* Auth states against the stand-in provider: restored states, single-flight refresh, the shared state file, refresh
 * verdicts and a sign-out during a refresh. Part of test_api. */
#include "api_support.h"

/* ------------------------------------------------------------------------------------------------
 * Auth states
 * --------------------------------------------------------------------------------------------- */

/* A restored state: userinfo, logout URL, revocation, serialization round trips. */
void test_auth_state_restored(void) {
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    char json[1024];
    int64_t later = (int64_t)time(NULL) + 3600;
    snprintf(json, sizeof json,
             "{\"version\":1,\"access_token\":\"at-u\",\"token_type\":\"Bearer\",\"expires_at\":%lld,\"refresh_token\":\"rt-u\","
             "\"id_token\":\"aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln\",\"id_token_claims\":{\"sub\":\"user-1\",\"aud\":\"c-1\"},\"scope\":\"openid profile\"}",
             (long long)later);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, json, &state));
    CHECK(signed_in(state) == 1);
    CHECK(expires_at(state) == later);
    CHECK_TOKEN(state, TELENORID_TOKEN_ID_TOKEN, "aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln");
    char *claims = state_string(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS);
    CHECK_CONTAINS(claims, "\"sub\":\"user-1\"");
    CHECK(claims && claims[0] == '{');
    free(claims);

    /* Serialize, restore, serialize: the same document. */
    char *first = NULL, *second = NULL;
    telenorid_auth_state *copy = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, first ? first : "", &copy));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(copy, &second));
    CHECK(first && second && strcmp(first, second) == 0);
    telenorid_string_free(first);
    telenorid_string_free(second);
    telenorid_auth_state_free(copy);

    /* Userinfo (discovering its endpoint first), with the access token as a bearer. */
    serve_discovery("", NULL);
    stub_set(&server, "GET", "/userinfo", 200, "application/json; charset=utf-8", "{\"sub\":\"user-1\",\"name\":\"\xc3\x85se\"}", NULL, 0);
    char *info = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_userinfo(state, &info));
    CHECK_CONTAINS(info, "\"sub\":\"user-1\"");
    CHECK_CONTAINS(info, "\xc3\x85se");
    telenorid_string_free(info);
    char *sent = stub_last_request(&server, "GET", "/userinfo");
    CHECK_CONTAINS(sent, "Authorization: Bearer at-u");
    free(sent);
    info = SENTINEL;
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"sub\":\"mallory\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TOKEN_INVALID, info, telenorid_auth_state_userinfo(state, &info));
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"name\":\"no sub\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, info, telenorid_auth_state_userinfo(state, &info));
    /* A 401 for a token the state thought valid: one refresh, one more try; a second 401 is an error
     * that keeps the sign-in. */
    stub_set(&server, "GET", "/userinfo", 401, "application/json", "",
             "WWW-Authenticate: Bearer error=\"invalid_token\", error_description=\"expired\"\r\n", 0);
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-v\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 0);
    int userinfo_calls = stub_hits(&server, "GET", "/userinfo"), token_calls = stub_hits(&server, "POST", "/token");
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, info, telenorid_auth_state_userinfo(state, &info));
    telenorid_error *e = telenorid_error_last();
    CHECK_STR("invalid_token", telenorid_error_oauth_error(e));
    CHECK_STR("expired", telenorid_error_oauth_description(e));
    CHECK(telenorid_error_http_status(e) == 401);
    telenorid_error_free(e);
    CHECK(stub_hits(&server, "GET", "/userinfo") == userinfo_calls + 2 && stub_hits(&server, "POST", "/token") == token_calls + 1);
    CHECK(signed_in(state) == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "at-v");
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-u");
    /* "Is the grant alive?": userinfo answers, nothing is rotated. */
    stub_set(&server, "GET", "/userinfo", 200, "application/json", "{\"sub\":\"user-1\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_check(state));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 1);
    /* The host's own API refused the token: the next fresh token is a refreshed one; a late report about a
     * token already replaced changes nothing. */
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-w\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_access_token_rejected(state, "at-u"));
    char *fresh = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
    CHECK_STR("at-v", fresh);
    telenorid_string_free(fresh);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_access_token_rejected(state, NULL));
    fresh = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
    CHECK_STR("at-w", fresh);
    telenorid_string_free(fresh);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 2);

    /* A resource's answer to the host's own request: a bare 401 refuses the token that request carried (the
     * next fresh token is refreshed), a step-up challenge and a 200 stand; bad arguments change nothing. */
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-x\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 0);
    int32_t retry = -1;
    const char *api = "https://api.example.com/me";
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_resource_answered(state, api, 200, NULL, NULL, "Bearer at-w", &retry));
    CHECK(retry == 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_resource_answered(
                                   state, api, 401, "Bearer error=\"insufficient_user_authentication\"", NULL,
                                   "Bearer at-w", &retry));
    CHECK(retry == 0);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_auth_state_resource_answered(state, api, 1000, NULL, NULL, "Bearer at-w", &retry));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_auth_state_resource_answered(state, NULL, 401, NULL, NULL, "Bearer at-w", &retry));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_auth_state_resource_answered(state, api, 401, NULL, NULL, "Bearer at-w", NULL));
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 2);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_resource_answered(state, api, 401, NULL, NULL, "Bearer at-w", &retry));
    CHECK(retry == 1);
    fresh = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &fresh));
    CHECK_STR("at-x", fresh);
    telenorid_string_free(fresh);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 3);

    /* The RP-initiated logout URL, with and without the optional parts. */
    char *logout = NULL, expected[512];
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, "com.example.app:/logged-out", "ls 1", &logout));
    snprintf(expected, sizeof expected,
             "%s/logout?id_token_hint=aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln&client_id=c-1&post_logout_redirect_uri=com.example.app%%3A%%2Flogged-out&state=ls%%201",
             base_url);
    CHECK_STR(expected, logout);
    telenorid_string_free(logout);
    logout = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_end_session_url(state, NULL, NULL, &logout));
    snprintf(expected, sizeof expected, "%s/logout?id_token_hint=aGRy.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJjLTEifQ.c2ln&client_id=c-1", base_url);
    CHECK_STR(expected, logout);
    telenorid_string_free(logout);
    CHECK(signed_in(state) == 1); /* does not sign out */

    /* Revocation: the refresh token goes, then the state is signed out (and the host told). */
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    /* Signed out first, so no refresh in flight can bring the grant back; a failed revocation is reported
     * and the state stays signed out (the user asked to be). */
    stub_set(&server, "POST", "/revoke", 503, "text/plain", "busy", NULL, 0);
    CHECK_STATUS(TELENORID_E_TEMPORARILY_UNAVAILABLE, telenorid_auth_state_revoke(state));
    sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=rt-u");
    CHECK_CONTAINS(sent, "token_type_hint=refresh_token");
    CHECK_CONTAINS(sent, "client_id=c-1");
    free(sent);
    CHECK(changes == 1);
    CHECK(signed_in(state) == 0);
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_revoke(state));
    char *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_serialize(state, &out));
    /* Signed out: only who the state belongs to is left. */
    CHECK(strstr(out, "\"version\":1") != NULL && strstr(out, "\"client_id\":\"c-1\"") != NULL);
    CHECK(strstr(out, "token") == NULL);
    telenorid_string_free(out);
    telenorid_auth_state_free(state);

    /* Without a refresh token, revocation sends the access token. */
    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"only-at\",\"token_type\":\"Bearer\"}", &state));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(state));
    sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=only-at");
    CHECK_CONTAINS(sent, "token_type_hint=access_token");
    free(sent);
    telenorid_auth_state_free(state);

    /* An expired token without a refresh token can't be made fresh. */
    state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"old\",\"token_type\":\"Bearer\",\"expires_at\":1}", &state));
    out = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NOT_SIGNED_IN, out, telenorid_auth_state_fresh_access_token(state, &out));
    telenorid_auth_state_free(state);

    /* Serialized states this version can't read. */
    telenorid_auth_state *bad = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, "{\"version\":1}", &state)); /* signed out */
    CHECK(signed_in(state) == 0);
    telenorid_auth_state_free(state);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_VERSION, bad, telenorid_auth_state_restore(client, "{\"version\":2,\"access_token\":\"a\"}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "[", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"a\"}", &bad));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_MALFORMED, bad, telenorid_auth_state_restore(client, "{\"version\":1,\"access_token\":\"a\",\"token_type\":\"Bearer\",\"expires_at\":\"soon\"}", &bad));
    telenorid_client_free(client);
    telenorid_config_free(config);
}

struct fresh_race { pthread_barrier_t *start; telenorid_auth_state *state; telenorid_status status; char *token; };

static void *race_fresh_token(void *arg) {
    struct fresh_race *r = arg;
    char *token = NULL;
    pthread_barrier_wait(r->start);
    r->status = telenorid_auth_state_fresh_access_token(r->state, &token);
    r->token = take(token);
    return NULL;
}

/* Eight threads want a fresh token from one state whose token expired: one refresh goes out. */
void test_single_flight_refresh(void) {
    const char *extra[] = {"6", NULL, NULL}; /* TELENORID_CONFIG_TOKEN_ENDPOINT, set below */
    char token_endpoint[128];
    snprintf(token_endpoint, sizeof token_endpoint, "%s/token-sf", base_url);
    extra[1] = token_endpoint;
    telenorid_config *config = provider_config("", extra);
    telenorid_client *client = NULL;
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"stale\",\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"rt-s\"}", &state));
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    stub_set(&server, "POST", "/token-sf", 200, "application/json",
             "{\"access_token\":\"at-fresh\",\"token_type\":\"Bearer\",\"expires_in\":3600}", NULL, 300);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, RACERS);
    pthread_t threads[RACERS];
    struct fresh_race races[RACERS];
    for (int i = 0; i < RACERS; i++) {
        races[i] = (struct fresh_race){&start, state, -1, NULL};
        CHECK(pthread_create(&threads[i], NULL, race_fresh_token, &races[i]) == 0);
    }
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        CHECK_STATUS(TELENORID_OK, races[i].status);
        CHECK_STR("at-fresh", races[i].token);
        free(races[i].token);
    }
    pthread_barrier_destroy(&start);
    CHECK(stub_hits(&server, "POST", "/token-sf") == 1);
    /* The header: "called after every change ... on the thread that made the change": one refresh, one call. */
    CHECK(changes == 1);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
}

/* Two auth states on one file stand for two processes (an app and its widget): the second uses the
 * refresh the first made instead of redeeming the rotated-away refresh token; a sign-out reaches it too. */
void test_auth_state_file(void) {
    char directory[] = "/tmp/telenorid-test-XXXXXX", path[128], lock[160];
    if (!CHECK(mkdtemp(directory) != NULL)) return;
    snprintf(path, sizeof path, "%s/state.json", directory);
    snprintf(lock, sizeof lock, "%s.lock", path);
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_auth_state *first = NULL, *second = NULL, *missing = SENTINEL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_open_file(client, path, &first)); /* no file yet: signed out */
    CHECK(signed_in(first) == 0);
    struct stat info;
    CHECK(stat(path, &info) == 0 && (info.st_mode & 0777) == 0600);
    telenorid_auth_state_free(first);
    first = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"at-f\",\"token_type\":\"Bearer\",\"expires_at\":1,\"refresh_token\":\"rt-f\"}", &first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_bind_file(first, path));
    CHECK(stat(path, &info) == 0 && (info.st_mode & 0777) == 0600 && stat(lock, &info) == 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_open_file(client, path, &second));
    CHECK_TOKEN(second, TELENORID_TOKEN_REFRESH_TOKEN, "rt-f");

    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-g\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-g\"}", NULL, 0);
    int token_calls = stub_hits(&server, "POST", "/token");
    char *token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(first, &token));
    CHECK_STR("at-g", token);
    telenorid_string_free(token);
    token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(second, &token)); /* expired in memory */
    CHECK_STR("at-g", token);
    telenorid_string_free(token);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 1); /* one refresh between the two */
    CHECK_TOKEN(second, TELENORID_TOKEN_REFRESH_TOKEN, "rt-g");

    /* Forced refreshes in both, one after the other: the second takes the first's, as threads waiting on one
     * refresh share it; and the one request sent rt-g, never rt-f again. */
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-h\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-h\"}", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(first));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_refresh(second));
    char *sent = stub_last_request(&server, "POST", "/token");
    CHECK_CONTAINS(sent, "refresh_token=rt-g");
    free(sent);
    CHECK(stub_hits(&server, "POST", "/token") == token_calls + 2);
    CHECK_TOKEN(second, TELENORID_TOKEN_ACCESS_TOKEN, "at-h");

    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(first));
    CHECK_STATUS(TELENORID_E_NOT_SIGNED_IN, telenorid_auth_state_refresh(second)); /* the file says signed out */
    CHECK(signed_in(second) == 0);

    /* A directory that does not exist: a configuration error naming the system's reason. */
    char nowhere[160];
    snprintf(nowhere, sizeof nowhere, "%s/no/such/dir/state.json", directory);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONFIGURATION, missing, telenorid_auth_state_open_file(client, nowhere, &missing));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "No such file or directory");

    telenorid_auth_state_free(first);
    telenorid_auth_state_free(second);
    telenorid_client_free(client);
    telenorid_config_free(config);
    unlink(lock);
    unlink(path);
    rmdir(directory);
}

/* How each answer to a refresh is judged: by status and body together. */
void test_refresh_verdicts(void) {
    static const struct {
        int status;
        const char *content_type, *body, *headers;
        telenorid_status expected;
        int32_t still_signed_in;
        int64_t retry_after;
    } cases[] = {
        {400, "text/plain", "", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {401, "text/html", "<html>no</html>", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {400, "application/json", "{\"error\":\"invalid_grant\"}", NULL, TELENORID_E_AUTHORIZATION_LOST, 0, -1},
        {401, "application/json", "{\"error\":\"invalid_client\"}", NULL, TELENORID_E_CLIENT_REJECTED, 1, -1},
        {400, "application/json", "{\"error\":\"unauthorized_client\"}", NULL, TELENORID_E_CLIENT_REJECTED, 1, -1},
        {400, "application/json", "{\"error\":\"access_denied\"}", NULL, TELENORID_E_AUTHORIZATION_ERROR, 1, -1},
        {503, "application/json", "{\"error\":\"invalid_grant\"}", "Retry-After: 9\r\n", TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, 9},
        {429, "text/plain", "", "Retry-After: 30\r\n", TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, 30},
        {302, "application/json", "{\"error\":\"invalid_grant\"}", "Location: http://127.0.0.1:9/\r\n",
         TELENORID_E_TEMPORARILY_UNAVAILABLE, 1, -1},
        {404, "text/plain", "", NULL, TELENORID_E_HTTP_STATUS, 1, -1},
        {200, "application/json", "{\"access_token\":\"a\",\"token_type\":\"DPoP\"}", NULL, TELENORID_E_INVALID_RESPONSE, 1, -1},
        {200, "application/json", "{\"access_token\":\"a\\u0000b\",\"token_type\":\"Bearer\"}", NULL,
         TELENORID_E_INVALID_RESPONSE, 1, -1},
    };
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        telenorid_auth_state *state = NULL;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
            "{\"version\":1,\"access_token\":\"at-v\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-v\"}", &state));
        int changes = 0;
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
        stub_set(&server, "POST", "/token", cases[i].status, cases[i].content_type, cases[i].body, cases[i].headers, 0);
        if (!CHECK_STATUS(cases[i].expected, telenorid_auth_state_refresh(state))) fprintf(stderr, "  case %zu\n", i);
        telenorid_error *e = telenorid_error_last();
        CHECK(telenorid_error_retry_after(e) == cases[i].retry_after);
        telenorid_error_free(e);
        if (!CHECK(signed_in(state) == cases[i].still_signed_in && changes == !cases[i].still_signed_in)) {
            fprintf(stderr, "  case %zu\n", i);
        }
        if (cases[i].still_signed_in) CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, "rt-v");
        telenorid_auth_state_free(state);
    }
    telenorid_client_free(client);
    telenorid_config_free(config);
}

static void *refresh_on_thread(void *state) {
    telenorid_status *outcome = malloc(sizeof *outcome);
    if (outcome) *outcome = telenorid_auth_state_refresh(state);
    return outcome;
}

/* A sign-out while a refresh is out wins: the refresh's tokens are not kept, not announced, and revoked. */
void test_sign_out_during_a_refresh(void) {
    telenorid_config *config = provider_config("", NULL);
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    serve_discovery("", NULL);
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client,
        "{\"version\":1,\"access_token\":\"at-r\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-r\"}", &state));
    int changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(state, change_counter, &changes));
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"at-s\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-s\"}", NULL, 400);
    stub_set(&server, "POST", "/revoke", 200, "application/json", "", NULL, 0);
    int revocations = stub_hits(&server, "POST", "/revoke");
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, refresh_on_thread, state) == 0)) return;
    stub_sleep_ms(100);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_revoke(state));
    void *outcome = NULL;
    pthread_join(thread, &outcome);
    CHECK(outcome && *(telenorid_status *)outcome == TELENORID_E_NOT_SIGNED_IN);
    free(outcome);
    CHECK(signed_in(state) == 0 && changes == 1);
    CHECK_TOKEN(state, TELENORID_TOKEN_REFRESH_TOKEN, NULL);
    CHECK(stub_hits(&server, "POST", "/revoke") == revocations + 2); /* the given-up grant and the discarded one */
    char *sent = stub_last_request(&server, "POST", "/revoke");
    CHECK_CONTAINS(sent, "token=rt-s");
    free(sent);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    telenorid_config_free(config);
}
