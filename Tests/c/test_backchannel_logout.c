/* Back-channel logout from C (OpenID Connect Back-Channel Logout 1.0): first the contract of each function
 * (NULL in every pointer, a handle of the wrong kind, outputs untouched on failure, unknown options and
 * fields), then logout tokens this test signs (HS256 with the client secret, with OpenSSL's HMAC, which an
 * ID token may use too: the library takes the client's ID-token algorithm rules, here
 * TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS "HS256", so no key set and no network are needed) validated as
 * §2.6 lists, a rule of each kind refused, and the local sign-out of §2.7: accounts in a directory store
 * named by sid and by sub, an auth state and its change callback, and the plain sign-out. The same checks
 * against a real provider's tokens (idpyoidc) are Tests/python/test_backchannel_logout.py's. Ends with
 * "N passed, M failed"; leak-free under valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <telenorid.h>
#include "check.h"
#include "status_checks.h"

#define ISSUER "https://id.example.com"
#define CLIENT_ID "rp"
#define SECRET "a secret of the relying party, 32 bytes or more long"
#define EVENT "\"events\":{\"http://schemas.openid.net/event/backchannel-logout\":{}}"

static void base64url(const unsigned char *data, size_t length, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0;
    for (size_t i = 0; i < length; i += 3) {
        unsigned long chunk = (unsigned long)data[i] << 16;
        if (i + 1 < length) chunk |= (unsigned long)data[i + 1] << 8;
        if (i + 2 < length) chunk |= data[i + 2];
        out[o++] = alphabet[(chunk >> 18) & 63];
        out[o++] = alphabet[(chunk >> 12) & 63];
        if (i + 1 < length) out[o++] = alphabet[(chunk >> 6) & 63];
        if (i + 2 < length) out[o++] = alphabet[chunk & 63];
    }
    out[o] = '\0';
}

/* A compact JWS of `header` and `payload`, HS256 with `secret`, into `out` (at least 4096 bytes). */
static void sign(const char *header, const char *payload, const char *secret, char *out) {
    size_t at;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_length = 0;
    base64url((const unsigned char *)header, strlen(header), out);
    at = strlen(out);
    out[at++] = '.';
    base64url((const unsigned char *)payload, strlen(payload), out + at);
    at = strlen(out);
    HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)out, at, mac, &mac_length);
    out[at++] = '.';
    base64url(mac, mac_length, out + at);
}

/* A logout token: the §2.4 claims issued `age` seconds ago with jti `jti`, `claims` (sub, sid, whatever
 * else) put in; typ logout+jwt. */
static void logout_token(const char *jti, long age, const char *claims, char *out) {
    char payload[2048];
    long now = (long)time(NULL);
    snprintf(payload, sizeof payload,
             "{\"iss\":\"" ISSUER "\",\"aud\":\"" CLIENT_ID "\",\"iat\":%ld,\"exp\":%ld,\"jti\":\"%s\"," EVENT "%s%s}",
             now - age, now + 120, jti, claims[0] ? "," : "", claims);
    sign("{\"alg\":\"HS256\",\"typ\":\"logout+jwt\"}", payload, SECRET, out);
}

static telenorid_config *config(void) {
    telenorid_config_builder *b = NULL;
    telenorid_config *out = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_new(&b));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ISSUER, ISSUER));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_ID, CLIENT_ID));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_CLIENT_SECRET, SECRET));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_set(b, TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS, "HS256"));
    CHECK_STATUS(TELENORID_OK, telenorid_config_builder_build(b, &out));
    telenorid_config_builder_free(b);
    return out;
}

/* The contract, with no network. */
static void test_contract(telenorid_client *client, const telenorid_config *cfg) {
    telenorid_backchannel_logout *logout = SENTINEL;
    telenorid_logout_token *token = SENTINEL;
    char *text = SENTINEL;
    int32_t named = 7;

    CHECK_NULL_ARG("client", telenorid_backchannel_logout_new(NULL, &logout));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_logout_new(client, NULL));
    CHECK_WRONG_KIND(telenorid_backchannel_logout_new(AS(telenorid_client, cfg), &logout));
    CHECK(logout == SENTINEL);
    logout = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_new(client, &logout))) return;

    CHECK_NULL_ARG("logout", telenorid_backchannel_logout_set(NULL, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "60"));
    CHECK_WRONG_KIND(telenorid_backchannel_logout_set(AS(telenorid_backchannel_logout, client),
                                                      TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "60"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_logout_set(logout, 99, "60"));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "unknown back-channel logout option");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_backchannel_logout_set(logout, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "0"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_backchannel_logout_set(logout, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "86401"));
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_set(logout, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "60"));
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_set(logout, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, NULL));

    CHECK_NULL_ARG("logout", telenorid_backchannel_logout_validate(NULL, "t", &token));
    CHECK_NULL_ARG("logout_token", telenorid_backchannel_logout_validate(logout, NULL, &token));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_backchannel_logout_validate(logout, "t", NULL));
    CHECK_WRONG_KIND(telenorid_backchannel_logout_validate(AS(telenorid_backchannel_logout, client), "t", &token));
    CHECK_STATUS(TELENORID_E_TOKEN_INVALID, telenorid_backchannel_logout_validate(logout, "not.a-token", &token));
    CHECK_LAST_ERROR(TELENORID_E_TOKEN_INVALID, "is not a JWS");
    CHECK(token == SENTINEL);

    CHECK_NULL_ARG("token", telenorid_logout_token_get(NULL, TELENORID_LOGOUT_TOKEN_SUB, &text));
    CHECK_WRONG_KIND(telenorid_logout_token_get(AS(telenorid_logout_token, logout), TELENORID_LOGOUT_TOKEN_SUB, &text));
    CHECK_NULL_ARG("token", telenorid_logout_token_json(NULL, &text));
    CHECK_WRONG_KIND(telenorid_logout_token_json(AS(telenorid_logout_token, logout), &text));
    CHECK_NULL_ARG("accounts", telenorid_accounts_backchannel_logout(NULL, AS(telenorid_logout_token, logout), &text));
    CHECK_NULL_ARG("state", telenorid_auth_state_backchannel_logout(NULL, AS(telenorid_logout_token, logout), &named));
    CHECK_NULL_ARG("state", telenorid_auth_state_sign_out(NULL));
    CHECK_WRONG_KIND(telenorid_auth_state_sign_out(AS(telenorid_auth_state, logout)));
    CHECK(text == SENTINEL && named == 7);
    telenorid_logout_token_free(NULL);
    telenorid_backchannel_logout_free(NULL);
    telenorid_backchannel_logout_free(logout);
}

static void check_refused(telenorid_backchannel_logout *logout, const char *jws, const char *because) {
    telenorid_logout_token *token = SENTINEL;
    if (CHECK_STATUS(TELENORID_E_TOKEN_INVALID, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        CHECK_LAST_ERROR(TELENORID_E_TOKEN_INVALID, because);
    }
    CHECK(token == SENTINEL);
}

static char *token_field(const telenorid_logout_token *token, telenorid_logout_token_field which) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_logout_token_get(token, which, &value));
    return value;
}

static void test_validation(telenorid_client *client) {
    telenorid_backchannel_logout *logout = NULL;
    telenorid_logout_token *token = NULL;
    char jws[4096], payload[1024];
    if (!CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_new(client, &logout))) return;

    logout_token("jti-1", 0, "\"sub\":\"alice\",\"sid\":\"s-1\"", jws);
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        char *sub = token_field(token, TELENORID_LOGOUT_TOKEN_SUB), *sid = token_field(token, TELENORID_LOGOUT_TOKEN_SID);
        char *iss = token_field(token, TELENORID_LOGOUT_TOKEN_ISS), *jti = token_field(token, TELENORID_LOGOUT_TOKEN_JTI);
        char *json = NULL, *untouched = SENTINEL;
        CHECK_STR("alice", sub);
        CHECK_STR("s-1", sid);
        CHECK_STR(ISSUER, iss);
        CHECK_STR("jti-1", jti);
        CHECK_STATUS(TELENORID_OK, telenorid_logout_token_json(token, &json));
        CHECK_CONTAINS(json, "http://schemas.openid.net/event/backchannel-logout");
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_logout_token_get(token, 0, &untouched));
        CHECK(untouched == SENTINEL);
        telenorid_string_free(sub);
        telenorid_string_free(sid);
        telenorid_string_free(iss);
        telenorid_string_free(jti);
        telenorid_string_free(json);
        telenorid_logout_token_free(token);
    }
    /* §2.6 step 8: the same token again is a replay. */
    check_refused(logout, jws, "was received before");

    /* A token with a sid only: no sub to read. */
    token = NULL;
    logout_token("jti-2", 0, "\"sid\":\"s-2\"", jws);
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        char *sub = SENTINEL;
        CHECK_STATUS(TELENORID_OK, telenorid_logout_token_get(token, TELENORID_LOGOUT_TOKEN_SUB, &sub));
        CHECK(sub == NULL);
        telenorid_logout_token_free(token);
    }

    logout_token("jti-3", 0, "\"sub\":\"alice\",\"nonce\":\"n-0S6_WzA2Mj\"", jws);
    check_refused(logout, jws, "carries a nonce");
    logout_token("jti-4", 0, "", jws);
    check_refused(logout, jws, "names neither a sub nor a sid");
    logout_token("jti-5", 600, "\"sub\":\"alice\"", jws);
    check_refused(logout, jws, "is older than 300 s");
    /* The host's window: ten minutes back is within an hour. */
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_set(logout, TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S, "3600"));
    token = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        telenorid_logout_token_free(token);
    }
    snprintf(payload, sizeof payload, "{\"iss\":\"" ISSUER "\",\"aud\":\"" CLIENT_ID "\",\"iat\":%ld,\"jti\":\"jti-6\","
             "\"sub\":\"alice\"}", (long)time(NULL));
    sign("{\"alg\":\"HS256\"}", payload, SECRET, jws);
    check_refused(logout, jws, "has no events object");
    snprintf(payload, sizeof payload, "{\"iss\":\"" ISSUER "\",\"aud\":\"another\",\"iat\":%ld,\"jti\":\"jti-7\","
             EVENT ",\"sub\":\"alice\"}", (long)time(NULL));
    sign("{\"alg\":\"HS256\"}", payload, SECRET, jws);
    check_refused(logout, jws, "is not meant for this client");
    snprintf(payload, sizeof payload, "{\"iss\":\"" ISSUER "\",\"aud\":\"" CLIENT_ID "\",\"iat\":%ld,\"jti\":\"jti-8\","
             EVENT ",\"sub\":\"alice\"}", (long)time(NULL));
    sign("{\"alg\":\"HS256\",\"typ\":\"at+jwt\"}", payload, SECRET, jws);
    check_refused(logout, jws, "not logout+jwt");
    sign("{\"alg\":\"HS256\"}", payload, "another secret, as long as the client's but not it", jws);
    check_refused(logout, jws, "signature");
    telenorid_backchannel_logout_free(logout);
}

/* A signed-in state of `sub` (with `sid` when not NULL), restored from its serialized form: the ID token's
 * signature is checked at sign-in, not here. */
static telenorid_auth_state *signed_in(telenorid_client *client, const char *sub, const char *sid) {
    char claims[256], encoded[400], json[1024];
    telenorid_auth_state *state = NULL;
    snprintf(claims, sizeof claims, "{\"iss\":\"" ISSUER "\",\"sub\":\"%s\",\"aud\":\"" CLIENT_ID "\"%s%s%s}", sub,
             sid ? ",\"sid\":\"" : "", sid ? sid : "", sid ? "\"" : "");
    base64url((const unsigned char *)claims, strlen(claims), encoded);
    snprintf(json, sizeof json,
             "{\"version\":1,\"issuer\":\"" ISSUER "\",\"client_id\":\"" CLIENT_ID "\",\"access_token\":\"at-%s\","
             "\"token_type\":\"Bearer\",\"refresh_token\":\"rt-%s\",\"id_token\":\"e30.%s.c2ln\"}",
             sub, sub, encoded);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, json, &state));
    return state;
}

static void count_change(void *user_data) { ++*(int *)user_data; }

static void test_sign_out(telenorid_client *client) {
    char directory[] = "/tmp/telenorid-bclogout-XXXXXX", jws[4096], *ids = NULL, *alice_id = NULL, *bob_id = NULL,
         *carol_id = NULL, *listed = NULL;
    telenorid_store *store = NULL;
    telenorid_accounts *accounts = NULL;
    telenorid_backchannel_logout *logout = NULL;
    telenorid_logout_token *token = NULL;
    int changes = 0;
    int32_t named = 7, signed_in_now = 7;
    if (!CHECK(mkdtemp(directory) != NULL)) return;
    CHECK_STATUS(TELENORID_OK, telenorid_store_new_directory(directory, &store));
    CHECK_STATUS(TELENORID_OK, telenorid_accounts_open(client, store, "app", &accounts));
    CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_new(client, &logout));
    telenorid_auth_state *alice = signed_in(client, "alice", "s-alice"), *bob = signed_in(client, "bob", "s-bob"),
                         *carol = signed_in(client, "carol", NULL);
    CHECK_STATUS(TELENORID_OK, telenorid_accounts_add(accounts, alice, &alice_id));
    CHECK_STATUS(TELENORID_OK, telenorid_accounts_add(accounts, bob, &bob_id));
    CHECK_STATUS(TELENORID_OK, telenorid_accounts_add(accounts, carol, &carol_id));

    /* By sid: bob's session; the output is the JSON array of the ids dropped. */
    logout_token("a-1", 0, "\"sid\":\"s-bob\"", jws);
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        char expected[64];
        snprintf(expected, sizeof expected, "[\"%s\"]", bob_id ? bob_id : "");
        CHECK_STATUS(TELENORID_OK, telenorid_accounts_backchannel_logout(accounts, token, &ids));
        CHECK_STR(expected, ids);
        telenorid_string_free(ids);
        ids = NULL;
        /* Again: nobody left to name. */
        CHECK_STATUS(TELENORID_OK, telenorid_accounts_backchannel_logout(accounts, token, &ids));
        CHECK_STR("[]", ids);
        telenorid_string_free(ids);
        ids = NULL;
        CHECK_WRONG_KIND(telenorid_accounts_backchannel_logout(accounts, AS(telenorid_logout_token, logout), &ids));
        CHECK(ids == NULL);
        telenorid_logout_token_free(token);
    }
    CHECK_STATUS(TELENORID_OK, telenorid_accounts_list(accounts, &listed));
    CHECK(listed && bob_id && alice_id && carol_id && !strstr(listed, bob_id) && strstr(listed, alice_id) &&
          strstr(listed, carol_id));
    telenorid_string_free(listed);

    /* An auth state: named by sub, signed out, its change callback run once. */
    telenorid_auth_state *alone = signed_in(client, "dave", "s-dave");
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(alone, count_change, &changes));
    logout_token("a-2", 0, "\"sub\":\"erin\"", jws);
    token = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_backchannel_logout(alone, token, &named));
        CHECK(named == 0 && changes == 0);
        telenorid_logout_token_free(token);
    }
    logout_token("a-3", 0, "\"sub\":\"dave\"", jws);
    token = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_backchannel_logout_validate(logout, jws, &token))) {
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_backchannel_logout(alone, token, &named));
        CHECK(named == 1 && changes == 1);
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(alone, &signed_in_now));
        CHECK(signed_in_now == 0);
        telenorid_logout_token_free(token);
    }

    /* The plain local sign-out: carol's state, bound to her account's record; nothing sent anywhere (the
     * client has no revocation endpoint and no network is reachable at id.example.com here). */
    changes = 0;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_set_change_callback(carol, count_change, &changes));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_sign_out(carol));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(carol, &signed_in_now));
    CHECK(signed_in_now == 0 && changes == 1);
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_sign_out(carol)); /* signed out already: OK, no callback */
    CHECK(changes == 1);
    /* Carol's record says signed out: her account, selected, holds no tokens. */
    telenorid_auth_state *reopened = NULL;
    if (carol_id && CHECK_STATUS(TELENORID_OK, telenorid_accounts_select(accounts, carol_id, &reopened))) {
        CHECK_STATUS(TELENORID_OK, telenorid_auth_state_is_signed_in(reopened, &signed_in_now));
        CHECK(signed_in_now == 0);
        telenorid_auth_state_free(reopened);
    }

    telenorid_auth_state_free(alone);
    telenorid_auth_state_free(alice);
    telenorid_auth_state_free(bob);
    telenorid_auth_state_free(carol);
    telenorid_string_free(alice_id);
    telenorid_string_free(bob_id);
    telenorid_string_free(carol_id);
    telenorid_backchannel_logout_free(logout);
    telenorid_accounts_free(accounts);
    telenorid_store_free(store);
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    CHECK(system(command) == 0);
}

int main(void) {
    telenorid_config *cfg = config();
    telenorid_client *client = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_client_new(cfg, &client))) return finish_checks();
    test_contract(client, cfg);
    test_validation(client);
    test_sign_out(client);
    telenorid_client_free(client);
    telenorid_config_free(cfg);
    return finish_checks();
}
