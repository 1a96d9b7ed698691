/* Benchmark, not a test: the library's PKCE pair, authorization URL and callback parse from C, beside a
 * hand-written C/OpenSSL reference doing the same work, in one run. Prints ns/op and the ratio. */
#define _GNU_SOURCE
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <telenorid.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static size_t b64url(const unsigned char *in, size_t n, char *out) {
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];
        out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63]; out[o++] = B64[v & 63];
    }
    if (n - i == 1) { unsigned v = in[i] << 16; out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; }
    if (n - i == 2) { unsigned v = in[i] << 16 | in[i + 1] << 8; out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63]; }
    out[o] = 0;
    return o;
}

static size_t pct(const char *in, char *out) {
    size_t o = 0;
    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~') out[o++] = c;
        else { out[o++] = '%'; out[o++] = "0123456789ABCDEF"[c >> 4]; out[o++] = "0123456789ABCDEF"[c & 15]; }
    }
    out[o] = 0;
    return o;
}

/* The reference: a 64-character verifier from 48 random bytes, and its S256 challenge. */
static void ref_pkce(char verifier[65], char challenge[44]) {
    unsigned char random[48], digest[32];
    if (getrandom(random, sizeof random, 0) != sizeof random) abort();
    b64url(random, sizeof random, verifier);
    static EVP_MD *sha256;  /* fetched once, as the library does: OpenSSL 3's SHA256() looks it up per call */
    unsigned length;
    if (!sha256) sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    EVP_Digest(verifier, 64, digest, &length, sha256, NULL);
    b64url(digest, 32, challenge);
}

static char *ref_url(void) {
    unsigned char random[64];
    char state[44], nonce[44], verifier[65], challenge[44], redirect[256], scope[128];
    if (getrandom(random, sizeof random, 0) != sizeof random) abort();
    b64url(random, 32, state);
    b64url(random + 32, 32, nonce);
    ref_pkce(verifier, challenge);
    pct("telenorid-example://authcallback/", redirect);
    pct("openid profile offline_access", scope);
    char *url = malloc(1024);
    snprintf(url, 1024, "https://id.example.com/authorize?response_type=code&client_id=tnn-example&redirect_uri=%s"
             "&scope=%s&state=%s&nonce=%s&code_challenge=%s&code_challenge_method=S256", redirect, scope, state, nonce, challenge);
    return url;
}

static int ref_callback(const char *url, const char *state, char *code, size_t code_size) {
    const char *query = strchr(url, '?');
    if (!query) return -1;
    const char *found_state = NULL, *found_code = NULL;
    size_t state_len = 0, code_len = 0;
    for (const char *p = query + 1; *p;) {
        const char *end = strchr(p, '&');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 6 && memcmp(p, "state=", 6) == 0) { found_state = p + 6; state_len = len - 6; }
        if (len > 5 && memcmp(p, "code=", 5) == 0) { found_code = p + 5; code_len = len - 5; }
        p += len + (end ? 1 : 0);
    }
    if (!found_state || !found_code || state_len != strlen(state) || memcmp(found_state, state, state_len) || code_len >= code_size) return -1;
    memcpy(code, found_code, code_len);
    code[code_len] = 0;
    return 0;
}

#define RUN(label, n, ...) do { double t0_ = now_ns(); for (int i_ = 0; i_ < (n); i_++) { __VA_ARGS__; } label = (now_ns() - t0_) / (n); } while (0)

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    telenorid_config *config = NULL;
    telenorid_config_from_json("{\"issuer\":\"https://id.example.com\",\"client_id\":\"tnn-example\","
                               "\"redirect_uri\":\"telenorid-example://authcallback/\",\"scope\":\"openid profile offline_access\","
                               "\"authorization_endpoint\":\"https://id.example.com/authorize\"}", NULL, &config);
    telenorid_auth_request *request = NULL;
    telenorid_auth_request_new(config, &request);

    double lib_pkce, ref_pkce_ns, lib_url, ref_url_ns, lib_build, lib_build_cb, ref_cb;
    RUN(lib_pkce, n, {
        telenorid_pkce *p; char *v, *c;
        telenorid_pkce_new(64, &p); telenorid_pkce_verifier(p, &v); telenorid_pkce_challenge(p, &c);
        telenorid_string_free(v); telenorid_string_free(c); telenorid_pkce_free(p);
    });
    RUN(ref_pkce_ns, n, { char v[65], c[44]; ref_pkce(v, c); });
    RUN(lib_url, n, {
        telenorid_pending_auth *p; char *u;
        telenorid_auth_request_build(request, &p); telenorid_pending_auth_url(p, &u);
        telenorid_string_free(u); telenorid_pending_auth_free(p);
    });
    RUN(ref_url_ns, n, { free(ref_url()); });
    RUN(lib_build, n, { telenorid_pending_auth *p; telenorid_auth_request_build(request, &p); telenorid_pending_auth_free(p); });
    RUN(lib_build_cb, n, {
        telenorid_pending_auth *p; telenorid_callback *cb; char *state, *code, url[256];
        telenorid_auth_request_build(request, &p); telenorid_pending_auth_state(p, &state);
        snprintf(url, sizeof url, "telenorid-example://authcallback/?code=SplxlOBeZQQYbYS6WxSbIA&state=%s&scope=openid", state);
        if (telenorid_pending_auth_handle_callback(p, url, &cb) != TELENORID_OK) abort();
        telenorid_callback_code(cb, &code);
        telenorid_string_free(code); telenorid_string_free(state); telenorid_callback_free(cb); telenorid_pending_auth_free(p);
    });
    const char *state = "kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg";
    char cb_url[256];
    snprintf(cb_url, sizeof cb_url, "telenorid-example://authcallback/?code=SplxlOBeZQQYbYS6WxSbIA&state=%s&scope=openid", state);
    RUN(ref_cb, n, { char code[64]; if (ref_callback(cb_url, state, code, sizeof code)) abort(); });
    double lib_cb = lib_build_cb - lib_build;

    printf("%-34s %12s %12s %8s\n", "from C (ns/op)", "libtelenorid", "reference", "ratio");
    printf("%-34s %12.0f %12.0f %7.2fx\n", "PKCE pair (64-char verifier)", lib_pkce, ref_pkce_ns, lib_pkce / ref_pkce_ns);
    printf("%-34s %12.0f %12.0f %7.2fx\n", "authorization URL (state+nonce+PKCE)", lib_url, ref_url_ns, lib_url / ref_url_ns);
    printf("%-34s %12.0f %12.0f %7.2fx\n", "callback parse+check (net of build)", lib_cb, ref_cb, lib_cb / ref_cb);
    telenorid_auth_request_free(request);
    telenorid_config_free(config);
    return 0;
}
