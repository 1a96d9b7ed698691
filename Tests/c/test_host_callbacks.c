/* Host callbacks through the public header: a signer's lifetime (removal and replacement wait for the calls
 * in flight and detach it from every auth state, so the host may free user_data right after), the signature
 * length a signer reports, calls back into the library from inside a signer, and the FAPI 2.0 algorithms
 * of a DPoP signer. No network: the auth states are restored from JSON and asked for request headers, which
 * sign a DPoP proof (RFC 9449) through the host's signer. Run plain, under valgrind and under ASan/UBSan
 * (Tests/c/run.sh): a signer called after its user_data was freed is a use after free there.
 * Ends with "N passed, M failed"; exits non-zero when a check failed. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <telenorid.h>
#include "status_checks.h"

#define ISSUER "https://id.example.com"
#define CLIENT_ID "tnn-example"
#define CONFIG_JSON "{\"issuer\":\"" ISSUER "\",\"client_id\":\"" CLIENT_ID "\",\"redirect_uri\":\"app://cb\""
/* Two P-256 public keys, and the first one's RFC 7638 thumbprint. */
#define JWK_A "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"Dmble-ZfhDWuX_3FyTN2v16yNRgArth7ooJcUet3K4s\"," \
              "\"y\":\"xCJMXPl-MZxAK5afhOk4AxqYkQDiTZWvc6-rOhJZCHo\"}"
#define JKT_A "8vC4Uwf1ahPJSoD6Yl0sYzAuiWl_7mfSK2oYPqD7zhE"
#define JWK_B "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"ITo6agWD0UM9aMzcz0CHpZifeKbycJkn8CiIrvyX3O8\"," \
              "\"y\":\"nP7_u8xeo_TugkelDEtdSsT1trqGNSl32pF3FidYnyw\"}"
/* RFC 7638 §3.1's RSA key, public members only. */
#define JWK_RSA "{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT8" \
    "6zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YG" \
    "jQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4l" \
    "Fd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw\"}"
#define STATE_JSON "{\"version\":1,\"issuer\":\"" ISSUER "\",\"client_id\":\"" CLIENT_ID "\",\"access_token\":\"at\"," \
                   "\"token_type\":\"DPoP\",\"dpop_jkt\":\"" JKT_A "\"}"
#define API "https://api.example.com/items"


/* What a test's signer does, and what it saw. Allocated with malloc so that a call after free() is caught. */
struct signer {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int calls;
    size_t capacity;            /* *signature_len on entry, at the last call */
    size_t report;              /* the length to report (0: 64, an ES256 signature) */
    int hold;                   /* stay inside the call until `release` is set */
    int inside, release;
    telenorid_client *client;   /* when set: calls back into the library with these from inside */
    telenorid_auth_state *state;
    telenorid_status reentered[4];
    char message[256];
    const char *pure_status;    /* telenorid_status_str() from inside */
    uint32_t pure_version;      /* telenorid_version() from inside */
};

static struct signer *signer_new(void) {
    struct signer *s = calloc(1, sizeof *s);
    if (!s) { fprintf(stderr, "out of memory\n"); exit(2); }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    return s;
}

static void signer_free(struct signer *s) {
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static int32_t sign(void *user_data, const uint8_t *input, size_t input_len, uint8_t *signature,
                    size_t *signature_len) {
    struct signer *s = user_data;
    (void)input;
    (void)input_len;
    pthread_mutex_lock(&s->lock);
    s->calls++;
    s->capacity = *signature_len;
    s->inside = 1;
    pthread_cond_broadcast(&s->changed);
    while (s->hold && !s->release) pthread_cond_wait(&s->changed, &s->lock);
    pthread_mutex_unlock(&s->lock);
    if (s->state) {
        char *token = NULL, *authorization = NULL, *dpop = NULL;
        s->reentered[0] = telenorid_auth_state_fresh_access_token(s->state, &token);
        telenorid_error *error = telenorid_error_last();  /* the refusal's detail, read right after it */
        snprintf(s->message, sizeof s->message, "%s", error ? telenorid_error_message(error) : "");
        telenorid_error_free(error);
        s->reentered[1] = telenorid_auth_state_request_headers(s->state, "GET", API, NULL, &authorization, &dpop);
        s->reentered[2] = telenorid_auth_state_revoke(s->state);
        s->reentered[3] = telenorid_client_set_dpop_signer(s->client, NULL, NULL, NULL, NULL);
        s->pure_status = telenorid_status_str(s->reentered[0]);
        s->pure_version = telenorid_version();
        telenorid_string_free(token);
        telenorid_string_free(authorization);
        telenorid_string_free(dpop);
    }
    memset(signature, 0x5a, 64);
    *signature_len = s->report ? s->report : 64;
    pthread_mutex_lock(&s->lock);
    s->inside = 0;
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static telenorid_client *client_for(const char *json) {
    telenorid_config *config = NULL;
    telenorid_client *client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_config_from_json(json, NULL, &config));
    CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client));
    telenorid_config_free(config);
    return client;
}

/* A client whose DPoP signer is `s` (key A), and an auth state restored for it: bound to that key. */
static telenorid_auth_state *state_signed_by(telenorid_client *client, struct signer *s) {
    telenorid_auth_state *state = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "ES256", JWK_A, sign, s));
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_restore(client, STATE_JSON, &state));
    return state;
}

/* request_headers on `state`: its status, the proof and the header checked when it succeeds. */
static telenorid_status headers(telenorid_auth_state *state) {
    char *authorization = NULL, *dpop = NULL;
    telenorid_status status = telenorid_auth_state_request_headers(state, "GET", API, NULL, &authorization, &dpop);
    if (status == TELENORID_OK) {
        CHECK_STR("DPoP at", authorization);
        CHECK(dpop != NULL && strchr(dpop, '.') != NULL);
    }
    telenorid_string_free(authorization);
    telenorid_string_free(dpop);
    return status;
}

/* The signer's signature length: the capacity it is given, and any length beyond it refused. */
static void test_signature_lengths(void) {
    telenorid_client *client = client_for(CONFIG_JSON "}");
    struct signer *s = signer_new();
    telenorid_auth_state *state = state_signed_by(client, s);
    CHECK_STATUS(TELENORID_OK, headers(state));
    CHECK(s->capacity >= 1024);
    size_t lengths[] = {(size_t)-1, (size_t)1 << 63, (size_t)-1 / 2 + 1, 0, 0};
    lengths[3] = s->capacity + 1;
    lengths[4] = (size_t)-1 - 63;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        s->report = lengths[i];
        CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, headers(state));
        CHECK_LAST_ERROR(TELENORID_E_INVALID_ARGUMENT, "signature length");
    }
    s->report = 0;
    CHECK_STATUS(TELENORID_OK, headers(state));
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    signer_free(s);
}

/* Removing the signer detaches it from the states that use it: the host frees user_data right after, and
 * the states' requests fail with a clear error instead of calling into freed memory. */
static void test_removal_detaches_the_signer(void) {
    telenorid_client *client = client_for(CONFIG_JSON "}");
    struct signer *s = signer_new();
    telenorid_auth_state *state = state_signed_by(client, s);
    CHECK_STATUS(TELENORID_OK, headers(state));
    CHECK(s->calls == 1);
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, NULL, NULL, NULL, NULL));
    signer_free(s);  /* what the header allows once the signer is removed */
    CHECK_STATUS(TELENORID_E_CONFIGURATION, headers(state));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "the DPoP signer was removed");
    /* A state saved with that key is not restored without it either. */
    telenorid_auth_state *again = NULL;
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_auth_state_restore(client, STATE_JSON, &again));
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
}

/* Setting the signer again replaces it: for the same key the states go on with the new one (the old
 * user_data may be freed), for another key they fail. */
static void test_replacement(void) {
    telenorid_client *client = client_for(CONFIG_JSON "}");
    struct signer *first = signer_new(), *second = signer_new(), *other = signer_new();
    telenorid_auth_state *state = state_signed_by(client, first);
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "ES256", JWK_A, sign, second));
    signer_free(first);
    CHECK_STATUS(TELENORID_OK, headers(state));
    CHECK(second->calls == 1);
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "ES256", JWK_B, sign, other));
    signer_free(second);
    CHECK_STATUS(TELENORID_E_CONFIGURATION, headers(state));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "the DPoP signer was replaced by one for another key");
    CHECK(other->calls == 0);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    signer_free(other);
}

struct request {
    telenorid_auth_state *state;
    telenorid_status status;
};

static void *request_headers_thread(void *argument) {
    struct request *r = argument;
    r->status = headers(r->state);
    return NULL;
}

struct removal {
    telenorid_client *client;
    struct signer *signer;
    int returned;
};

static void *remove_thread(void *argument) {
    struct removal *r = argument;
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(r->client, NULL, NULL, NULL, NULL));
    pthread_mutex_lock(&r->signer->lock);
    r->returned = 1;
    CHECK(!r->signer->inside);  /* the call in flight had returned */
    pthread_mutex_unlock(&r->signer->lock);
    return NULL;
}

/* Removal waits for a call in flight to return, and that call's request completes. */
static void test_removal_waits_for_calls_in_flight(void) {
    telenorid_client *client = client_for(CONFIG_JSON "}");
    struct signer *s = signer_new();
    telenorid_auth_state *state = state_signed_by(client, s);
    s->hold = 1;
    struct request request = {state, -1};
    struct removal removal = {client, s, 0};
    pthread_t requester, remover;
    pthread_create(&requester, NULL, request_headers_thread, &request);
    pthread_mutex_lock(&s->lock);
    while (!s->inside) pthread_cond_wait(&s->changed, &s->lock);
    pthread_mutex_unlock(&s->lock);
    pthread_create(&remover, NULL, remove_thread, &removal);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&s->lock);
    CHECK(!removal.returned);  /* still waiting for the signer */
    s->release = 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    pthread_join(remover, NULL);
    pthread_join(requester, NULL);
    CHECK_STATUS(TELENORID_OK, request.status);
    CHECK(s->calls == 1);
    signer_free(s);
    CHECK_STATUS(TELENORID_E_CONFIGURATION, headers(state));
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
}

/* From inside a signer, calls that take the library's locks are refused (they would wait for the call the
 * signer is part of); the pure functions answer. */
static void test_calls_from_inside_a_signer(void) {
    telenorid_client *client = client_for(CONFIG_JSON "}");
    struct signer *s = signer_new();
    telenorid_auth_state *state = state_signed_by(client, s);
    s->client = client;
    s->state = state;
    CHECK_STATUS(TELENORID_OK, headers(state));
    CHECK(s->calls == 1);
    for (int i = 0; i < 4; i++) CHECK_STATUS(TELENORID_E_INVALID_ARGUMENT, s->reentered[i]);
    CHECK_CONTAINS(s->message, "called from inside a host callback");
    CHECK(s->pure_version == telenorid_version());
    CHECK_STR(telenorid_status_str(TELENORID_E_INVALID_ARGUMENT), s->pure_status);
    /* Outside the callback the same calls work again on this thread. */
    s->state = NULL;
    char *token = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_auth_state_fresh_access_token(state, &token));
    CHECK_STR("at", token);
    telenorid_string_free(token);
    telenorid_auth_state_free(state);
    telenorid_client_free(client);
    signer_free(s);
}

/* FAPI 2.0 Security Profile §5.4.1 item 1: the DPoP signer signs with PS256, ES256 or EdDSA, as the client
 * signer does. */
static void test_fapi2_dpop_signer_algorithms(void) {
    telenorid_client *client = client_for(CONFIG_JSON ",\"security_profile\":\"fapi2\",\"dpop_signing_alg\":\"ES256\","
                                          "\"token_endpoint_auth_method\":\"none\"}");
    struct signer *s = signer_new();
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_client_set_dpop_signer(client, "RS256", JWK_RSA, sign, s));
    CHECK_LAST_ERROR(TELENORID_E_CONFIGURATION, "5.4.1");
    CHECK_STATUS(TELENORID_E_CONFIGURATION, telenorid_client_set_client_signer(client, "RS256", JWK_RSA, sign, s));
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "PS256", JWK_RSA, sign, s));
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "ES256", JWK_A, sign, s));
    telenorid_client_free(client);
    /* Without the profile RS256 is the host's choice. */
    client = client_for(CONFIG_JSON "}");
    CHECK_STATUS(TELENORID_OK, telenorid_client_set_dpop_signer(client, "RS256", JWK_RSA, sign, s));
    telenorid_client_free(client);
    CHECK(s->calls == 0);
    signer_free(s);
}

int main(void) {
    alarm(120);  /* a deadlock ends the test as a failure instead of hanging it */
    test_signature_lengths();
    test_removal_detaches_the_signer();
    test_replacement();
    test_removal_waits_for_calls_in_flight();
    test_calls_from_inside_a_signer();
    test_fapi2_dpop_signer_algorithms();
    return finish_checks();
}
