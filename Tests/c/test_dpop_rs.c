/* DPoP at a resource server from C (RFC 9449 §4.3, §7.1): telenorid_resource_server_verify_dpop() on proofs the
 * library itself makes (telenorid_auth_state_request_headers() of an auth state restored with a DPoP key the
 * library holds), each kind of refusal with the WWW-Authenticate error and rule it leaves in the last error,
 * the nonces of telenorid_resource_server_dpop_nonce(), and a telenorid_dpop_replay_cache shared by two resource
 * servers and freed before them. No network, no ports. Ends with "N passed, M failed"; leak-free under
 * valgrind. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <telenorid.h>
#include "check.h"
#include "status_checks.h"

#define ISSUER "https://id.example.com"
#define CONFIG_JSON "{\"issuer\":\"" ISSUER "\",\"client_id\":\"tnn-example\",\"redirect_uri\":\"app://cb\"}"
/* A P-256 key made for this test with `openssl ecparam -name prime256v1 -genkey`, as the library saves a
 * DPoP key it holds (DPoPKey.serialized: {"v":1,"alg":"ES256","jwk":{private JWK}}), and its RFC 7638
 * thumbprint: the cnf.jkt of the tokens bound to it. */
#define DPOP_KEY "{\"v\":1,\"alg\":\"ES256\",\"jwk\":{\"kty\":\"EC\",\"crv\":\"P-256\"," \
    "\"x\":\"D6zG_4O2xShEbB8qmerqiGOilHaogD3-q7aBTL_aNiI\",\"y\":\"gfMCri2rWh0H9hghyUmSCXL-BKjqktwVU9XsCDpfgQo\"," \
    "\"d\":\"8nDSQVJcTGgARFxDGvt-k1JvYl9ZToNw3t0p-MjWA8E\"}}"
#define JKT "VThPefez7erv3aUAfyD0vQgr2Zma-YQ4a4YRmWOnuk0"
#define TOKEN "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
#define STATE_JSON "{\"version\":1,\"issuer\":\"" ISSUER "\",\"client_id\":\"tnn-example\",\"access_token\":\"" \
    TOKEN "\",\"token_type\":\"DPoP\",\"dpop_key\":" DPOP_KEY "}"
#define API "https://api.example.com/items"
#define SENTINEL_CACHE ((telenorid_dpop_replay_cache *)(void *)0x1)

static telenorid_client *client;
static telenorid_auth_state *state;

/* A fresh proof for `method` `url` (with `nonce` when not NULL), made by the library's DPoP signer. */
static char *proof_for(const char *method, const char *url, const char *nonce) {
    char *authorization = NULL, *dpop = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_request_headers(state, method, url, nonce, &authorization, &dpop));
    CHECK_STR("DPoP " TOKEN, authorization);
    telenorid_string_free(authorization);
    return dpop;
}

/* The call was refused with TELENORID_E_TOKEN_INVALID, and the last error holds the WWW-Authenticate error
 * `code` and a description naming `rule`. */
static void check_refused(telenorid_status status, const char *code, const char *rule) {
    if (!CHECK_STATUS(TELENORID_E_TOKEN_INVALID, status)) return;
    telenorid_error *error = telenorid_error_last();
    CHECK_STR(code, telenorid_error_oauth_error(error));
    const char *description = telenorid_error_oauth_description(error);
    CHECK(description != NULL);
    if (description) CHECK_CONTAINS(description, rule);
    CHECK(strstr(telenorid_error_message(error), TOKEN) == NULL);  /* the token is never quoted */
    telenorid_error_free(error);
}

static telenorid_resource_server *server_new(void) {
    telenorid_resource_server *server = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_new(client, "https://api.example.com/", &server));
    return server;
}

static void test_contract(void) {
    telenorid_resource_server *server = server_new();
    telenorid_dpop_replay_cache *cache = SENTINEL_CACHE;
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_dpop_replay_cache_new(0, 16, &cache));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "window");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_dpop_replay_cache_new(3601, 16, &cache));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_dpop_replay_cache_new(60, 0, &cache));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "replay cache");
    CHECK(cache == SENTINEL_CACHE);  /* outputs written only on success */
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_set_dpop_replay_cache(server, (telenorid_dpop_replay_cache *)(void *)server));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "another kind");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_set_dpop_replay_cache(server, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_dpop_nonce(server, NULL));
    char *proof = proof_for("GET", API, NULL);
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, NULL, NULL));
    CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "neither jkt nor info");
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_verify_dpop(server, NULL, "GET", API, TOKEN, JKT, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_verify_dpop(server, proof, "GET", API, NULL, JKT, NULL));
    /* The server's own view of the request is an argument, not something to refuse the client for. */
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_verify_dpop(server, proof, "G T", API, TOKEN, JKT, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT,
                 telenorid_resource_server_verify_dpop(server, proof, "GET", "/items", TOKEN, JKT, NULL));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_set(
                     server, TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE, "yes"));
    CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, telenorid_resource_server_set(
                     server, TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS, "HS256"));
    /* Nothing above took the proof's jti: it is accepted now. */
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL));
    telenorid_string_free(proof);
    telenorid_dpop_replay_cache_free(NULL);
    telenorid_resource_server_free(server);
}

static void test_proofs_and_refusals(void) {
    telenorid_resource_server *server = server_new();
    char *proof = proof_for("GET", API, NULL);
    /* htu compares without query and fragment, after RFC 3986 normalisation. */
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_dpop(
                     server, proof, "GET", "HTTPS://API.example.com:443/./items?page=2", TOKEN, JKT, NULL));
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "replayed");
    telenorid_string_free(proof);

    proof = proof_for("GET", API, NULL);
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "POST", API, TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "check 8");
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API "/1", TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "check 9");
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API, "another-token", JKT, NULL),
                  "invalid_dpop_proof", "ath");
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN,
                                                        "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I", NULL),
                  "invalid_dpop_proof", "cnf.jkt");
    check_refused(telenorid_resource_server_verify_dpop(server, "not-a-proof", "GET", API, TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "check 2");
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(server, TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS, "EdDSA PS256"));
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "check 5");
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_set(server, TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL));
    telenorid_string_free(proof);
    telenorid_resource_server_free(server);
}

static void test_nonces(void) {
    telenorid_resource_server *server = server_new();
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(server, TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE, "true"));
    char *proof = proof_for("GET", API, NULL);
    check_refused(telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL),
                  "use_dpop_nonce", "nonce");
    telenorid_string_free(proof);
    char *nonce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_dpop_nonce(server, &nonce));
    CHECK(nonce != NULL && strlen(nonce) == 43);
    /* The client sends the request again with the nonce (RFC 9449 §9). */
    proof = proof_for("GET", API, nonce);
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_dpop(server, proof, "GET", API, TOKEN, JKT, NULL));
    telenorid_string_free(proof);
    /* Another server (its own cache) made another nonce: the client's kept nonce is not its. */
    telenorid_resource_server *other = server_new();
    CHECK_STATUS(TELENORID_OK,
                 telenorid_resource_server_set(other, TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE, "true"));
    proof = proof_for("GET", API, NULL);  /* the state keeps the nonce for api.example.com */
    check_refused(telenorid_resource_server_verify_dpop(other, proof, "GET", API, TOKEN, JKT, NULL),
                  "use_dpop_nonce", "current");
    telenorid_string_free(proof);
    telenorid_string_free(nonce);
    telenorid_resource_server_free(other);
    telenorid_resource_server_free(server);
}

static void test_shared_cache(void) {
    telenorid_resource_server *first = server_new(), *second = server_new();
    telenorid_dpop_replay_cache *cache = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_dpop_replay_cache_new(30, 16, &cache));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_set_dpop_replay_cache(first, cache));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_set_dpop_replay_cache(second, cache));
    telenorid_dpop_replay_cache_free(cache);  /* the servers keep it */
    char *a = NULL, *b = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_dpop_nonce(first, &a));
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_dpop_nonce(second, &b));
    CHECK_STR(a, b);
    telenorid_string_free(a);
    telenorid_string_free(b);
    char *proof = proof_for("GET", API, NULL);
    CHECK_STATUS(TELENORID_OK, telenorid_resource_server_verify_dpop(first, proof, "GET", API, TOKEN, JKT, NULL));
    check_refused(telenorid_resource_server_verify_dpop(second, proof, "GET", API, TOKEN, JKT, NULL),
                  "invalid_dpop_proof", "replayed");
    telenorid_string_free(proof);
    telenorid_resource_server_free(first);
    telenorid_resource_server_free(second);
}

int main(void) {
    telenorid_config *config = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(CONFIG_JSON, NULL, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    telenorid_config_free(config);
    if (!CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, STATE_JSON, &state))) return finish_checks();
    test_contract();
    test_proofs_and_refusals();
    test_nonces();
    test_shared_cache();
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    return finish_checks();
}
