/* Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0, draft 07) from C, against the double every
 * language's Native SSO test starts, Tests/support/native_sso_provider.py (TEST DOUBLE: no provider installed
 * here implements Native SSO; see there), started here. The first app signs in with "openid device_sso" (the
 * code flow with PKCE, the browser's part played by the script's `authorize`) and reads its device secret and
 * ID token (TELENORID_TOKEN_DEVICE_SECRET, _ID_TOKEN); the second app, another client id, signs the same user in
 * with telenorid_client_native_sso. Then the refusals, the second app's client signing in again after each: a
 * device secret whose hash the ID token does not carry (§3.4), refused before any request (the double counts
 * the requests it received); an ID token of another issuer (a second double); the provider's invalid_grant,
 * once the first app has revoked its grant (which ends the device session at the double), with its error,
 * description and HTTP status. Ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "sign_in.h"

#define S(expected, call) CHECK_STATUS(expected, call)
#define DOUBLE "Tests/support/native_sso_provider.py"
/* The vendor's two apps, as the double registers them (its APPS). */
#define APP_ONE "vendor-app-one"
#define APP_TWO "vendor-app-two"
#define REDIRECT_ONE "com.example.one:/callback"
#define REDIRECT_TWO "com.example.two:/callback"

/* A running double: its standard input (a line "requests" asks for its count) and output. */
struct provider {
    pid_t pid;
    FILE *in, *out;
    char issuer[256];
};

static int start_double(struct provider *p) {
    int in[2], out[2];
    memset(p, 0, sizeof *p);
    if (pipe(in) != 0) return 0;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return 0;
    }
    /* This process's ends are not inherited by later children (a second double, the browser's part), so a
     * double sees its input close when this test closes it. */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    p->pid = fork();
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execlp("python3", "python3", DOUBLE, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->in = fdopen(in[1], "w");
    p->out = fdopen(out[0], "r");
    char line[1024];
    return p->pid > 0 && p->in && p->out && fgets(line, sizeof line, p->out) != NULL &&
           field(line, "\"issuer\": \"", p->issuer, sizeof p->issuer);
}

/* Closing its input ends the double. */
static void stop_double(struct provider *p) {
    if (p->in) fclose(p->in);
    if (p->out) fclose(p->out);
    if (p->pid > 0) waitpid(p->pid, NULL, 0);
}

/* How many HTTP requests the double has received; -1 when it does not say. */
static long requests_received(struct provider *p) {
    char line[128];
    if (fputs("requests\n", p->in) < 0 || fflush(p->in) != 0 || !fgets(line, sizeof line, p->out)) return -1;
    const char *n = strstr(line, "\"requests\": ");
    return n ? strtol(n + 12, NULL, 10) : -1;
}

static telenorid_client *new_client(const char *issuer, const char *client_id, const char *redirect_uri) {
    return public_client(issuer, client_id, redirect_uri, "openid device_sso");
}

/* The first app's sign-in (the code flow with PKCE, §3.1's device_sso in the scope); NULL when it failed. */
static telenorid_auth_state *first_app_signs_in(telenorid_client *client) {
    char *browser[] = {"python3", DOUBLE, "authorize", NULL, NULL};
    return sign_in_through(client, browser, 3);
}

/* A field of a state (telenorid_string_free it); NULL when it has none. */
static char *get(const telenorid_auth_state *state, telenorid_token_field field) {
    char *value = NULL;
    if (state) S(TELENORID_OK, telenorid_auth_state_get(state, field, &value));
    return value;
}

/* The second app signs in from the pair: its state is of the user of `id_token`, for the second app, holding
 * `device_secret`. */
static void second_app_signs_in(telenorid_client *second, const char *id_token, const char *device_secret,
                                const char *sid) {
    telenorid_auth_state *state = NULL;
    if (!S(TELENORID_OK, telenorid_client_native_sso(second, id_token, device_secret, NULL, &state))) return;
    char *claims = get(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS), *secret = get(state, TELENORID_TOKEN_DEVICE_SECRET);
    char *access = NULL, *refresh = get(state, TELENORID_TOKEN_REFRESH_TOKEN);
    int32_t signed_in = 0;
    S(TELENORID_OK, telenorid_auth_state_is_signed_in(state, &signed_in));
    CHECK(signed_in == 1);
    S(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &access));
    CHECK(access && strncmp(access, "at-", 3) == 0);
    CHECK(refresh && strncmp(refresh, "rt-", 3) == 0);
    CHECK_CONTAINS(claims, "\"sub\":\"alice\"");
    CHECK_CONTAINS(claims, "\"aud\":\"" APP_TWO "\"");
    CHECK_CONTAINS(claims, sid); /* the device session's */
    CHECK_STR(device_secret, secret); /* the one in force, kept for the next app */
    telenorid_string_free(claims);
    telenorid_string_free(secret);
    telenorid_string_free(access);
    telenorid_string_free(refresh);
    telenorid_auth_state_free(state);
}

/* The "sid":"..." member of a state's ID token claims, into `out`. */
static void sid_of(const telenorid_auth_state *state, char *out, size_t size) {
    char *claims = get(state, TELENORID_TOKEN_ID_TOKEN_CLAIMS);
    char value[128] = "";
    out[0] = '\0';
    if (CHECK(claims && field(claims, "\"sid\":\"", value, sizeof value))) snprintf(out, size, "\"sid\":\"%s\"", value);
    telenorid_string_free(claims);
}

static void test_native_sso(struct provider *provider, struct provider *elsewhere) {
    telenorid_client *one = new_client(provider->issuer, APP_ONE, REDIRECT_ONE);
    telenorid_client *two = new_client(provider->issuer, APP_TWO, REDIRECT_TWO);
    telenorid_auth_state *first = first_app_signs_in(one);
    char *id_token = get(first, TELENORID_TOKEN_ID_TOKEN), *secret = get(first, TELENORID_TOKEN_DEVICE_SECRET);
    char sid[160];
    if (!CHECK(id_token && secret)) goto done;
    CHECK(strncmp(secret, "ds-", 3) == 0);
    sid_of(first, sid, sizeof sid);
    second_app_signs_in(two, id_token, secret, sid);

    /* A device secret that is not the ID token's (§3.4's ds_hash): refused here, nothing sent. */
    telenorid_auth_state *out = SENTINEL;
    long before = requests_received(provider);
    S(TELENORID_E_INVALID_ARGUMENT, telenorid_client_native_sso(two, id_token, "ds-not-the-device-secret", NULL, &out));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "ds_hash");
    CHECK(out == SENTINEL);
    CHECK(before >= 0 && requests_received(provider) == before);
    second_app_signs_in(two, id_token, secret, sid);

    /* An ID token of another issuer (the first app signed in at a second double): refused here, nothing sent. */
    telenorid_client *one_elsewhere = new_client(elsewhere->issuer, APP_ONE, REDIRECT_ONE);
    telenorid_auth_state *first_elsewhere = first_app_signs_in(one_elsewhere);
    char *foreign_id_token = get(first_elsewhere, TELENORID_TOKEN_ID_TOKEN);
    char *foreign_secret = get(first_elsewhere, TELENORID_TOKEN_DEVICE_SECRET);
    if (CHECK(foreign_id_token && foreign_secret)) {
        long here = requests_received(provider), there = requests_received(elsewhere);
        S(TELENORID_E_INVALID_ARGUMENT, telenorid_client_native_sso(two, foreign_id_token, foreign_secret, NULL, &out));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "issuer");
        CHECK(out == SENTINEL);
        CHECK(here >= 0 && requests_received(provider) == here);
        CHECK(there >= 0 && requests_received(elsewhere) == there);
    }
    telenorid_string_free(foreign_id_token);
    telenorid_string_free(foreign_secret);
    telenorid_auth_state_free(first_elsewhere);
    telenorid_client_free(one_elsewhere);
    second_app_signs_in(two, id_token, secret, sid);

    /* The first app revokes its grant, which ends the device session at the double: its refusal surfaces. */
    S(TELENORID_OK, telenorid_auth_state_revoke(first));
    S(TELENORID_E_AUTHORIZATION_ERROR, telenorid_client_native_sso(two, id_token, secret, NULL, &out));
    telenorid_error *error = telenorid_error_last();
    if (CHECK(error != NULL)) {
        CHECK(telenorid_error_status(error) == TELENORID_E_AUTHORIZATION_ERROR);
        CHECK_STR("invalid_grant", telenorid_error_oauth_error(error));
        CHECK_STR("the device session has ended", telenorid_error_oauth_description(error));
        CHECK(telenorid_error_http_status(error) == 400);
        CHECK(strstr(telenorid_error_message(error), secret) == NULL);
    }
    telenorid_error_free(error);
    CHECK(out == SENTINEL);
    /* A new sign-in of the first app, a new device session: the second app signs in from its pair. */
    telenorid_auth_state *again = first_app_signs_in(one);
    char *new_id_token = get(again, TELENORID_TOKEN_ID_TOKEN), *new_secret = get(again, TELENORID_TOKEN_DEVICE_SECRET);
    if (CHECK(new_id_token && new_secret && strcmp(new_secret, secret) != 0)) {
        char new_sid[160];
        sid_of(again, new_sid, sizeof new_sid);
        CHECK(strcmp(new_sid, sid) != 0);
        second_app_signs_in(two, new_id_token, new_secret, new_sid);
    }
    telenorid_string_free(new_id_token);
    telenorid_string_free(new_secret);
    telenorid_auth_state_free(again);
done:
    telenorid_string_free(id_token);
    telenorid_string_free(secret);
    telenorid_auth_state_free(first);
    telenorid_client_free(two);
    telenorid_client_free(one);
}

int main(void) {
    struct provider provider = {0}, elsewhere = {0};
    if (CHECK(start_double(&provider)) && CHECK(start_double(&elsewhere))) test_native_sso(&provider, &elsewhere);
    stop_double(&elsewhere);
    stop_double(&provider);
    return finish_checks();
}
