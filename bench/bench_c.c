/* Benchmark, not a test: libtelenorid's PKCE pair, authorization URL and callback check, called from C
 * (linked), beside a hand-written C/OpenSSL reference doing the same work, in one run.
 *
 * Usage: bench_c [iterations per round, default 20000] [rounds, default 7]
 *
 * The operations of library and reference are interleaved round by round and each keeps its best round
 * (ns/op), so load from other processes hits both sides alike and the ratio stays meaningful. Time is the
 * thread's CPU time unless BENCH_CLOCK=wall.
 *
 * What each row measures:
 *   PKCE pair      lib: telenorid_pkce_new(43) + _verifier + _challenge + 2 string_free + _pkce_free
 *                  lib, one call: telenorid_pkce_generate(43) into stack buffers, the same reference
 *                  ref: getrandom(32) → base64url (43-char verifier), SHA-256 (EVP, digest fetched once)
 *                       → base64url, into stack buffers
 *   auth URL       lib: telenorid_auth_request_build + _pending_auth_url + string_free + _pending_auth_free,
 *                       on one request made up front with prompt, ui_locales, acr_values and a claims request
 *                       with purposes (OIDC Core §5.5; OpenID Connect for Identity Assurance's `purpose`), as
 *                       an app would; it stays usable. Its PKCE verifier is 43 base64url characters, as the
 *                       reference's (RFC 7636 §4.1).
 *                  ref: getrandom for state and nonce (32 bytes each) + the PKCE reference + percent-encoding
 *                       of every parameter value (the claims JSON too) + snprintf into a malloc'd buffer + free
 *   callback       lib: telenorid_pending_auth_handle_callback alone (parse, state check, single-use mark):
 *                       each needs a fresh pending request, so a batch of them is built first, and the
 *                       callbacks freed afterwards, untimed.
 *                  ref: find '?', split on '&', memcmp for "state="/"code=", compare state, copy the code
 */
#define _GNU_SOURCE
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <telenorid.h>
#include <time.h>

#include "bench_results.h"

/* CPU time of this thread by default (user + system, so getrandom's kernel work counts), so that other
 * processes competing for the CPUs do not inflate the figures; BENCH_CLOCK=wall for wall-clock time. */
static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

static inline uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(clock_id, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void check(telenorid_status status, const char *what) {
    if (status == TELENORID_OK) return;
    telenorid_error *error = telenorid_error_last();
    fprintf(stderr, "bench_c: %s failed: %s (%s)\n", what, telenorid_error_message(error), telenorid_status_str(status));
    telenorid_error_free(error);
    exit(1);
}

/* ---- the hand-written reference ---------------------------------------------------------------------- */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static size_t b64url(const unsigned char *in, size_t n, char *out) {
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63]; out[o++] = B64[v & 63];
    }
    if (n - i == 1) {
        unsigned v = (unsigned)in[i] << 16;
        out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63];
    } else if (n - i == 2) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8;
        out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63];
    }
    out[o] = 0;
    return o;
}

static size_t percent_encode(const char *in, char *out) {
    static const char HEX[] = "0123456789ABCDEF";
    size_t o = 0;
    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out[o++] = (char)c;
        } else {
            out[o++] = '%'; out[o++] = HEX[c >> 4]; out[o++] = HEX[c & 15];
        }
    }
    out[o] = 0;
    return o;
}

static void random_bytes(unsigned char *buffer, size_t n) {
    if (getrandom(buffer, n, 0) != (ssize_t)n) abort();
}

static const EVP_MD *sha256;  /* fetched once: OpenSSL 3's one-shot SHA256() looks the digest up per call */

static void ref_pkce(char verifier[44], char challenge[44]) {
    unsigned char random[32], digest[32];
    unsigned length;
    random_bytes(random, sizeof random);
    b64url(random, sizeof random, verifier);  /* 43 characters */
    if (!EVP_Digest(verifier, 43, digest, &length, sha256, NULL)) abort();
    b64url(digest, sizeof digest, challenge);
}

#define ENDPOINT "https://id.example.com/authorize"
#define CLIENT_ID "tnn-example"
#define REDIRECT "telenorid-example://authcallback/"
#define SCOPE "openid profile"
#define PROMPT "login consent"
#define UI_LOCALES "nb en"
#define ACR_VALUES "urn:telenor:loa:substantial urn:telenor:loa:high"
/* The claims request as the library serializes the add_claim calls in main(), so both URLs are alike. */
#define CLAIMS "{\"id_token\":{\"acr\":{\"values\":[\"urn:telenor:loa:substantial\",\"urn:telenor:loa:high\"]}}," \
    "\"userinfo\":{\"given_name\":{\"essential\":true,\"purpose\":\"To greet you by name\"}," \
    "\"family_name\":{\"essential\":true,\"purpose\":\"To address you\"}," \
    "\"email\":{\"essential\":false,\"purpose\":\"To send receipts\"}}}"

static char *ref_url(void) {
    unsigned char random[64];
    char state[44], nonce[44], verifier[44], challenge[44], redirect[3 * sizeof REDIRECT], scope[3 * sizeof SCOPE],
        prompt[3 * sizeof PROMPT], locales[3 * sizeof UI_LOCALES], acr[3 * sizeof ACR_VALUES], claims[3 * sizeof CLAIMS];
    random_bytes(random, sizeof random);
    b64url(random, 32, state);
    b64url(random + 32, 32, nonce);
    ref_pkce(verifier, challenge);
    percent_encode(REDIRECT, redirect);
    percent_encode(SCOPE, scope);
    percent_encode(PROMPT, prompt);
    percent_encode(UI_LOCALES, locales);
    percent_encode(ACR_VALUES, acr);
    percent_encode(CLAIMS, claims);
    char *url = malloc(2048);
    if (!url) abort();
    snprintf(url, 2048, ENDPOINT "?response_type=code&client_id=" CLIENT_ID "&redirect_uri=%s&scope=%s&state=%s"
             "&nonce=%s&code_challenge=%s&code_challenge_method=S256&prompt=%s&ui_locales=%s&acr_values=%s&claims=%s",
             redirect, scope, state, nonce, challenge, prompt, locales, acr, claims);
    return url;
}

static int ref_callback(const char *url, const char *state, char *code, size_t code_size) {
    const char *query = strchr(url, '?');
    if (!query) return -1;
    const char *found_state = NULL, *found_code = NULL;
    size_t state_length = 0, code_length = 0;
    for (const char *p = query + 1; *p;) {
        const char *end = strchr(p, '&');
        size_t length = end ? (size_t)(end - p) : strlen(p);
        if (length > 6 && memcmp(p, "state=", 6) == 0) { found_state = p + 6; state_length = length - 6; }
        if (length > 5 && memcmp(p, "code=", 5) == 0) { found_code = p + 5; code_length = length - 5; }
        p += length + (end ? 1 : 0);
    }
    if (!found_state || !found_code || state_length != strlen(state) || memcmp(found_state, state, state_length) ||
        code_length >= code_size)
        return -1;
    memcpy(code, found_code, code_length);
    code[code_length] = 0;
    return 0;
}

/* ---- the operations, each run n times and returning ns/op ---------------------------------------------- */

static telenorid_auth_request *request;
static volatile size_t sink;  /* keeps results observable so nothing is optimized away */

static double lib_pkce(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        telenorid_pkce *pkce;
        char *verifier, *challenge;
        check(telenorid_pkce_new(43, &pkce), "pkce_new");
        check(telenorid_pkce_verifier(pkce, &verifier), "pkce_verifier");
        check(telenorid_pkce_challenge(pkce, &challenge), "pkce_challenge");
        sink += (size_t)verifier[0] + (size_t)challenge[0];
        telenorid_string_free(verifier);
        telenorid_string_free(challenge);
        telenorid_pkce_free(pkce);
    }
    return (double)(now_ns() - start) / n;
}

static double lib_pkce_generate(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        char verifier[44], challenge[44];
        check(telenorid_pkce_generate(43, verifier, sizeof verifier, challenge, sizeof challenge), "pkce_generate");
        sink += (size_t)verifier[0] + (size_t)challenge[0];
    }
    return (double)(now_ns() - start) / n;
}

static double reference_pkce(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        char verifier[44], challenge[44];
        ref_pkce(verifier, challenge);
        sink += (size_t)verifier[0] + (size_t)challenge[0];
    }
    return (double)(now_ns() - start) / n;
}

static double lib_url(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        telenorid_pending_auth *pending;
        char *url;
        check(telenorid_auth_request_build(request, &pending), "auth_request_build");
        check(telenorid_pending_auth_url(pending, &url), "pending_auth_url");
        sink += strlen(url);
        telenorid_string_free(url);
        telenorid_pending_auth_free(pending);
    }
    return (double)(now_ns() - start) / n;
}

static double reference_url(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        char *url = ref_url();
        sink += strlen(url);
        free(url);
    }
    return (double)(now_ns() - start) / n;
}

static void callback_url(telenorid_pending_auth *pending, char *url, size_t size) {
    char *state;
    check(telenorid_pending_auth_state(pending, &state), "pending_auth_state");
    snprintf(url, size, REDIRECT "?code=SplxlOBeZQQYbYS6WxSbIA&state=%s&scope=openid", state);
    telenorid_string_free(state);
}

/* Only the callbacks are timed: each needs a fresh pending request (single-use), so a batch of n is built
 * first, and the callbacks and requests are freed afterwards, untimed. */
static telenorid_pending_auth **batch;
static telenorid_authorization_callback **batch_callbacks;
static char (*batch_urls)[256];

static double lib_callback(int n) {
    for (int i = 0; i < n; i++) {
        check(telenorid_auth_request_build(request, &batch[i]), "auth_request_build");
        callback_url(batch[i], batch_urls[i], sizeof batch_urls[i]);
    }
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++)
        check(telenorid_pending_auth_handle_callback(batch[i], batch_urls[i], &batch_callbacks[i]), "handle_callback");
    double elapsed = (double)(now_ns() - start);
    for (int i = 0; i < n; i++) {
        char *code;
        check(telenorid_authorization_callback_code(batch_callbacks[i], &code), "callback_code");
        if (strcmp(code, "SplxlOBeZQQYbYS6WxSbIA")) abort();
        telenorid_string_free(code);
        telenorid_authorization_callback_free(batch_callbacks[i]);
        telenorid_pending_auth_free(batch[i]);
    }
    return elapsed / n;
}

static const char REF_STATE[] = "kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg";
static const char REF_CALLBACK[] = REDIRECT "?code=SplxlOBeZQQYbYS6WxSbIA&state=kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg"
                                            "&scope=openid";

static double reference_callback(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        char code[64];
        if (ref_callback(REF_CALLBACK, REF_STATE, code, sizeof code)) abort();
        sink += (size_t)code[0];
    }
    return (double)(now_ns() - start) / n;
}

static double min(double a, double b) { return a < b ? a : b; }

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (n <= 0 || rounds <= 0) {
        fprintf(stderr, "usage: bench_c [iterations per round] [rounds]\n");
        return 2;
    }
    uint32_t version = telenorid_version();
    if (version >> 16 != TELENORID_VERSION_MAJOR || ((version >> 8) & 0xFF) < TELENORID_VERSION_MINOR) {
        fprintf(stderr, "bench_c: library %s does not match header %s\n", telenorid_version_string(),
                TELENORID_VERSION_STRING);
        return 1;
    }
    const char *clock_name = getenv("BENCH_CLOCK");
    int wall = clock_name && strcmp(clock_name, "wall") == 0;
    if (wall) clock_id = CLOCK_MONOTONIC;
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!sha256) abort();

    telenorid_config_builder *builder;
    telenorid_config *config;
    check(telenorid_config_builder_new(&builder), "config_builder_new");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, "https://id.example.com"), "set issuer");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, CLIENT_ID), "set client_id");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, REDIRECT), "set redirect_uri");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_SCOPE, SCOPE), "set scope");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, ENDPOINT), "set endpoint");
    check(telenorid_config_builder_build(builder, &config), "config_builder_build");
    telenorid_config_builder_free(builder);
    check(telenorid_auth_request_new(config, &request), "auth_request_new");
    check(telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, PROMPT), "set prompt");
    check(telenorid_auth_request_set(request, TELENORID_AUTH_UI_LOCALES, UI_LOCALES), "set ui_locales");
    check(telenorid_auth_request_set(request, TELENORID_AUTH_ACR_VALUES, ACR_VALUES), "set acr_values");
    check(telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "given_name", 1, "To greet you by name",
                                           NULL, NULL), "add_claim given_name");
    check(telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "family_name", 1, "To address you",
                                           NULL, NULL), "add_claim family_name");
    check(telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_USERINFO, "email", 0, "To send receipts", NULL,
                                           NULL), "add_claim email");
    check(telenorid_auth_request_add_claim(request, TELENORID_CLAIMS_ID_TOKEN, "acr", -1, NULL, NULL,
                                           "[\"urn:telenor:loa:substantial\",\"urn:telenor:loa:high\"]"),
          "add_claim acr");

    /* The two URLs must carry the same parameters, so the comparison is like for like. */
    {
        telenorid_pending_auth *pending;
        char *url, *reference;
        check(telenorid_auth_request_build(request, &pending), "auth_request_build");
        check(telenorid_pending_auth_url(pending, &url), "pending_auth_url");
        reference = ref_url();
        if (strlen(url) != strlen(reference)) {
            fprintf(stderr, "bench_c: the reference URL differs in shape from the library's:\n  %s\n  %s\n", url,
                    reference);
            return 1;
        }
        telenorid_string_free(url);
        telenorid_pending_auth_free(pending);
        free(reference);
    }

    batch = calloc((size_t)n, sizeof *batch);
    batch_callbacks = calloc((size_t)n, sizeof *batch_callbacks);
    batch_urls = calloc((size_t)n, sizeof *batch_urls);
    if (!batch || !batch_callbacks || !batch_urls) abort();
    double best[7];
    for (int i = 0; i < 7; i++) best[i] = 1e300;
    /* Warm-up round, not counted. */
    lib_pkce(n / 10 + 1); reference_pkce(n / 10 + 1); lib_url(n / 10 + 1); reference_url(n / 10 + 1);
    lib_callback(n / 10 + 1); reference_callback(n / 10 + 1); lib_pkce_generate(n / 10 + 1);
    for (int round = 0; round < rounds; round++) {
        best[0] = min(best[0], lib_pkce(n));
        best[1] = min(best[1], reference_pkce(n));
        best[2] = min(best[2], lib_url(n));
        best[3] = min(best[3], reference_url(n));
        best[4] = min(best[4], lib_callback(n));
        best[5] = min(best[5], reference_callback(n * 10));
        best[6] = min(best[6], lib_pkce_generate(n));
    }

    printf("from C, ns/op (%s), best of %d rounds x %d          libtelenorid  C reference    ratio\n",
           wall ? "wall clock" : "thread CPU time", rounds, n);
    printf("  %-58s %12.0f %12.0f %8.2fx\n", "PKCE pair (43-char verifier + S256 challenge)", best[0], best[1],
           best[0] / best[1]);
    printf("  %-58s %12.0f %12.0f %8.2fx\n", "PKCE pair, one call (telenorid_pkce_generate)", best[6], best[1],
           best[6] / best[1]);
    printf("  %-58s %12.0f %12.0f %8.2fx\n", "authorization URL (claims, ui_locales, acr_values, prompt)", best[2],
           best[3], best[2] / best[3]);
    printf("  %-58s %12.0f %12.1f %8.1fx\n", "callback parse + state check (the call alone)", best[4], best[5],
           best[4] / best[5]);
    bench_record("c_pkce", best[0] / 1000, best[1] / 1000);
    bench_record("c_pkce_generate", best[6] / 1000, best[1] / 1000);
    bench_record("c_url", best[2] / 1000, best[3] / 1000);
    bench_record("c_callback", best[4] / 1000, best[5] / 1000);

    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    EVP_MD_free((EVP_MD *)sha256);
    free(batch);
    free(batch_callbacks);
    free(batch_urls);
    return 0;
}
