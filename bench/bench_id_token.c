/* Benchmark, not a test: ID token validation from C, libtelenorid's telenorid_client_verify_id_token (RS256,
 * the key picked by kid from a 2-key set fetched once and cached, iss, aud, exp, iat, nonce: OIDC Core
 * §3.1.3.7) beside OpenSSL's own RSA verify alone (EVP_DigestVerifyInit + EVP_DigestVerify over the signing
 * input, with the key parsed and the signature decoded once, up front): the floor any validation stands
 * on. The goal (issue 36) allows the library 1.1× that plus 1 µs for everything else (splitting, decoding,
 * JSON, the claim checks).
 *
 * It also measures the least a signature check can cost at all: SHA-256 over the signing input and
 * EVP_PKEY_verify with a context set up once (what a validator that keeps one per key does). That floor is
 * what bench/report.py divides the Python references' times by: no client that checks the signature can be
 * more times faster than them than that.
 *
 *   bench_id_token <issuer> <jwks_uri> <token file> <public key PEM file> <nonce> [validations per round] [rounds]
 *
 * Prints µs per validation (thread CPU time), best round of several with the two interleaved, and the
 * ratio library / reference. */
#define _GNU_SOURCE
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <telenorid.h>
#include <time.h>

#include "bench_results.h"

#define CLIENT_ID "bench-client"

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void check(telenorid_status status, const char *what) {
    if (status == TELENORID_OK) return;
    telenorid_error *error = telenorid_error_last();
    fprintf(stderr, "bench_id_token: %s failed: %s (%s)\n", what, telenorid_error_message(error), telenorid_status_str(status));
    telenorid_error_free(error);
    exit(1);
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    static char buffer[65536];
    size_t length = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    while (length && (buffer[length - 1] == '\n' || buffer[length - 1] == '\r')) length--;
    buffer[length] = 0;
    return strdup(buffer);
}

/* ---- the reference ----------------------------------------------------------------------------------- */
static EVP_PKEY *public_key;
static const char *token, *nonce;
static size_t signing_input_length;
static unsigned char signature[512];
static size_t signature_length;

static int b64url_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

static size_t b64url_decode(const char *in, size_t n, unsigned char *out, size_t capacity) {
    size_t o = 0;
    uint32_t bits = 0;
    int count = 0;
    if (n / 4 * 3 + 2 > capacity) return (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        int v = b64url_value((unsigned char)in[i]);
        if (v < 0) return (size_t)-1;
        bits = bits << 6 | (uint32_t)v;
        if (++count == 4) {
            out[o++] = (unsigned char)(bits >> 16); out[o++] = (unsigned char)(bits >> 8); out[o++] = (unsigned char)bits;
            bits = 0; count = 0;
        }
    }
    if (count == 2) out[o++] = (unsigned char)(bits >> 4);
    if (count == 3) { out[o++] = (unsigned char)(bits >> 10); out[o++] = (unsigned char)(bits >> 2); }
    return o;
}

static int reference_validate(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, public_key) == 1 &&
             EVP_DigestVerify(context, signature, signature_length, (const unsigned char *)token, signing_input_length) == 1;
    EVP_MD_CTX_free(context);
    return ok;
}

/* The floor: a verify context initialised once for RS256, then per validation a digest and the RSA
 * public-key operation, nothing else. */
static EVP_PKEY_CTX *floor_context;

static int floor_validate(void) {
    unsigned char digest[32];
    unsigned int digest_length = 0;
    return EVP_Digest(token, signing_input_length, digest, &digest_length, EVP_sha256(), NULL) == 1 &&
           EVP_PKEY_verify(floor_context, signature, signature_length, digest, digest_length) == 1;
}

/* ---- the library ------------------------------------------------------------------------------------- */
static telenorid_client *client;

static int library_validate(void) {
    char *claims = NULL;
    check(telenorid_client_verify_id_token(client, token, nonce, &claims), "verify_id_token");
    int ok = claims != NULL;
    telenorid_string_free(claims);
    return ok;
}

static double timed(int (*validate)(void), int n) {
    uint64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        if (!validate()) { fprintf(stderr, "bench_id_token: a validation failed\n"); exit(1); }
    }
    return (double)(now_ns() - start) / n / 1000.0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: bench_id_token <issuer> <jwks_uri> <token file> <public key PEM file> <nonce> [n] [rounds]\n");
        return 2;
    }
    const char *issuer = argv[1];
    token = read_file(argv[3]);
    const char *dot1 = strchr(token, '.'), *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
    if (!dot2) { fprintf(stderr, "bench_id_token: not a JWS\n"); return 1; }
    signing_input_length = (size_t)(dot2 - token);
    signature_length = b64url_decode(dot2 + 1, strlen(dot2 + 1), signature, sizeof signature);
    if (signature_length == (size_t)-1) { fprintf(stderr, "bench_id_token: bad signature encoding\n"); return 1; }
    nonce = argv[5];
    int n = argc > 6 ? atoi(argv[6]) : 5000;
    int rounds = argc > 7 ? atoi(argv[7]) : 5;
    if (n <= 0 || rounds <= 0) return 2;
    char *pem = read_file(argv[4]);
    BIO *bio = BIO_new_mem_buf(pem, -1);
    public_key = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (!public_key) { fprintf(stderr, "bench_id_token: bad public key\n"); return 1; }
    floor_context = EVP_PKEY_CTX_new(public_key, NULL);
    if (!floor_context || EVP_PKEY_verify_init(floor_context) != 1 || EVP_PKEY_CTX_set_signature_md(floor_context, EVP_sha256()) != 1) {
        fprintf(stderr, "bench_id_token: cannot set up a verify context\n");
        return 1;
    }

    telenorid_config_builder *builder;
    telenorid_config *config;
    check(telenorid_config_builder_new(&builder), "config_builder_new");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, issuer), "set issuer");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, CLIENT_ID), "set client_id");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, "com.example.app:/oauth2redirect"), "set redirect_uri");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_JWKS_URI, argv[2]), "set jwks_uri");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "http://127.0.0.1/authorize"), "set authorization_endpoint");
    check(telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT, "http://127.0.0.1/token"), "set token_endpoint");
    check(telenorid_config_builder_build(builder, &config), "config_builder_build");
    telenorid_config_builder_free(builder);
    check(telenorid_client_new(config, &client), "client_new");

    timed(library_validate, 20);  /* the key set is fetched once, then cached */
    timed(reference_validate, 20);
    timed(floor_validate, 20);
    double library = 1e30, reference = 1e30, floor = 1e30;
    for (int round = 0; round < rounds; round++) {
        double a = timed(library_validate, n), b = timed(reference_validate, n), c = timed(floor_validate, n);
        if (a < library) library = a;
        if (b < reference) reference = b;
        if (c < floor) floor = c;
    }
    printf("ID token validation from C (RS256, 2048-bit key, 2-key set), µs/op thread CPU time, best of %d rounds of %d\n",
           rounds, n);
    printf("  %-58s %8.1f\n", "libtelenorid telenorid_client_verify_id_token", library);
    printf("  %-58s %8.1f\n", "OpenSSL RSA verify alone (EVP_DigestVerify)", reference);
    printf("  %-58s %8.1f\n", "floor: SHA-256 + EVP_PKEY_verify, context kept", floor);
    printf("  %-58s %8.2f\n", "ratio libtelenorid / reference", library / reference);
    bench_record("c_id_token", library, reference);
    bench_record("rsa_verify_floor", floor, reference);
    telenorid_client_free(client);
    telenorid_config_free(config);
    EVP_PKEY_CTX_free(floor_context);
    EVP_PKEY_free(public_key);
    return 0;
}
