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
 *   PKCE pair      lib: telenorid_pkce_new(0) + _verifier + _challenge + 2 string_free + _pkce_free
 *                  ref: getrandom(48) → base64url (64-char verifier), SHA-256 (EVP, digest fetched once)
 *                       → base64url, into stack buffers
 *   auth URL       lib: telenorid_auth_request_build + _pending_auth_url + string_free + _pending_auth_free
 *                       (one request made from the config up front, as an app would; it stays usable)
 *                  ref: getrandom for state and nonce (32 bytes each) + the PKCE reference + percent-encoding
 *                       of redirect URI and scope + snprintf into a malloc'd buffer + free
 *   callback       lib: telenorid_pending_auth_handle_callback + _callback_code + string_free + _callback_free,
 *                       timed alone: each needs a fresh pending request (it is single-use), so a batch of them
 *                       is built first, untimed. A second figure, (build+callback) − (build), computed from
 *                       two loops timed whole, is printed as a cross-check.
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

static void ref_pkce(char verifier[65], char challenge[44]) {
    unsigned char random[48], digest[32];
    unsigned length;
    random_bytes(random, sizeof random);
    b64url(random, sizeof random, verifier);  /* 64 characters */
    if (!EVP_Digest(verifier, 64, digest, &length, sha256, NULL)) abort();
    b64url(digest, sizeof digest, challenge);
}

#define ENDPOINT "https://id.example.com/authorize"
#define CLIENT_ID "tnn-example"
#define REDIRECT "telenorid-example://authcallback/"
#define SCOPE "openid profile offline_access"

static char *ref_url(void) {
    unsigned char random[64];
    char state[44], nonce[44], verifier[65], challenge[44], redirect[3 * sizeof REDIRECT], scope[3 * sizeof SCOPE];
    random_bytes(random, sizeof random);
    b64url(random, 32, state);
    b64url(random + 32, 32, nonce);
    ref_pkce(verifier, challenge);
    percent_encode(REDIRECT, redirect);
    percent_encode(SCOPE, scope);
    char *url = malloc(1024);
    if (!url) abort();
    snprintf(url, 1024, ENDPOINT "?response_type=code&client_id=" CLIENT_ID "&redirect_uri=%s&scope=%s&state=%s"
             "&nonce=%s&code_challenge=%s&code_challenge_method=S256", redirect, scope, state, nonce, challenge);
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
        check(telenorid_pkce_new(0, &pkce), "pkce_new");
        check(telenorid_pkce_verifier(pkce, &verifier), "pkce_verifier");
        check(telenorid_pkce_challenge(pkce, &challenge), "pkce_challenge");
        sink += (size_t)verifier[0] + (size_t)challenge[0];
        telenorid_string_free(verifier);
        telenorid_string_free(challenge);
        telenorid_pkce_free(pkce);
    }
    return (double)(now_ns() - start) / n;
}

static double reference_pkce(int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        char verifier[65], challenge[44];
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
 * first, untimed, and freed afterwards. */
static telenorid_pending_auth **batch;
static char (*batch_urls)[256];

static double lib_callback(int n) {
    for (int i = 0; i < n; i++) {
        check(telenorid_auth_request_build(request, &batch[i]), "auth_request_build");
        callback_url(batch[i], batch_urls[i], sizeof batch_urls[i]);
    }
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        telenorid_callback *callback;
        char *code;
        check(telenorid_pending_auth_handle_callback(batch[i], batch_urls[i], &callback), "handle_callback");
        check(telenorid_callback_code(callback, &code), "callback_code");
        sink += strlen(code);
        telenorid_string_free(code);
        telenorid_callback_free(callback);
    }
    double elapsed = (double)(now_ns() - start);
    for (int i = 0; i < n; i++) telenorid_pending_auth_free(batch[i]);
    return elapsed / n;
}

/* The cross-check: the same loop without timing inside, with and without the callback. */
static double lib_build_and_callback(int n, int with_callback) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        telenorid_pending_auth *pending;
        char url[256];
        check(telenorid_auth_request_build(request, &pending), "auth_request_build");
        callback_url(pending, url, sizeof url);
        if (with_callback) {
            telenorid_callback *callback;
            char *code;
            check(telenorid_pending_auth_handle_callback(pending, url, &callback), "handle_callback");
            check(telenorid_callback_code(callback, &code), "callback_code");
            sink += strlen(code);
            telenorid_string_free(code);
            telenorid_callback_free(callback);
        } else {
            sink += strlen(url);
        }
        telenorid_pending_auth_free(pending);
    }
    return (double)(now_ns() - start) / n;
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
    batch_urls = calloc((size_t)n, sizeof *batch_urls);
    if (!batch || !batch_urls) abort();
    double best[8];
    for (int i = 0; i < 8; i++) best[i] = 1e300;
    /* Warm-up round, not counted. */
    lib_pkce(n / 10 + 1); reference_pkce(n / 10 + 1); lib_url(n / 10 + 1); reference_url(n / 10 + 1);
    lib_callback(n / 10 + 1); reference_callback(n / 10 + 1);
    for (int round = 0; round < rounds; round++) {
        best[0] = min(best[0], lib_pkce(n));
        best[1] = min(best[1], reference_pkce(n));
        best[2] = min(best[2], lib_url(n));
        best[3] = min(best[3], reference_url(n));
        best[4] = min(best[4], lib_callback(n));
        best[5] = min(best[5], reference_callback(n * 10));
        best[6] = min(best[6], lib_build_and_callback(n, 1));
        best[7] = min(best[7], lib_build_and_callback(n, 0));
    }

    printf("from C, ns/op (%s), best of %d rounds x %d    libtelenorid  C reference    ratio (target <= 2x)\n",
           wall ? "wall clock" : "thread CPU time", rounds, n);
    printf("  %-52s %12.0f %12.0f %8.2fx\n", "PKCE pair (64-char verifier + S256 challenge)", best[0], best[1],
           best[0] / best[1]);
    printf("  %-52s %12.0f %12.0f %8.2fx\n", "authorization URL (state+nonce+PKCE+URL)", best[2], best[3],
           best[2] / best[3]);
    printf("  %-52s %12.0f %12.1f %8.1fx\n", "callback parse+check (timed alone, build excluded)", best[4], best[5],
           best[4] / best[5]);
    printf("  %-52s %12.0f %12s\n", "  cross-check: (build+callback) - (build)", best[6] - best[7], "");
    printf("  (the timed-alone callback runs over a batch of pending requests built beforehand)\n");

    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    EVP_MD_free((EVP_MD *)sha256);
    free(batch);
    free(batch_urls);
    return 0;
}
