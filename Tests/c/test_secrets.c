/* Secrets leave no copies behind. A confidential client signs in against a provider in another process
 * (Tests/c/secrets_provider.py), once with client_secret_basic and once with client_secret_post
 * (RFC 6749 §2.3.1): code exchange with the PKCE verifier, a refresh, userinfo with the access token as
 * a bearer, the access token (an RFC 9068 JWT) verified by a resource server; the state serialized and
 * restored, bound to a file, opened from it and refreshed through it (the file is read and rewritten);
 * revocation. A third sign-in binds its code and tokens to a DPoP key
 * (RFC 9449): its pending authorization, which holds the verifier and the key, is serialized while the
 * browser is open and restored, and the restored one takes the callback and proves possession of the key
 * in the code exchange (dpop_jkt, §10); the state is serialized, the key's private d read out of it, and
 * the state restored and refreshed, so the restored key signs a proof; that key is also configured as
 * a client's private key (private_key_jwt) and read back. The first two sign-ins ask for the device_sso
 * scope, so their states also hold a Native SSO device secret (OpenID Connect Native SSO 1.0 §3.4; the
 * provider is a double for that part, see secrets_provider.py). Every handle is freed, the file removed, and then every readable region of /proc/self/maps is
 * read through /proc/self/mem and searched for the code verifiers, the access and refresh tokens, the
 * device secrets and
 * the client secret (also as client_secret_basic's base64 credentials) and the DPoP key's d (as the
 * base64url text of the saved state and as its 32 bytes). Of each verified access token (a JWS, RFC 7515
 * §7.1) also the parts a verification handles on their own: its signing input (header.payload as sent,
 * §5.2, nearly the whole token), its signature as sent and decoded, and its decoded payload; the two
 * first give the token back. Each copy found is printed with its address, its region and the bytes around it,
 * and fails the test: freed heap memory that still holds a token is as readable to a heap dump, a core
 * file or a later overread as a live buffer.
 *
 * The test's own knowledge of the secrets must not be found. The secrets are kept XOR-masked with a
 * random key (in an mmap'd arena the scan skips) and compared masked, byte by byte, so they never exist
 * in the clear in this process except where the library put them; the one string the test has to hand
 * in (the client secret) is unmasked into a stack buffer that is wiped right after. The strings the
 * library hands out are masked as they are read and released with telenorid_string_free(), which wipes.
 * The launcher's output line, which carries the secret, is read with read(2), not stdio, whose buffer
 * would be freed unwiped.
 *
 * libcurl's own copies (the request it assembles from the header lines and a small POST body, its download
 * buffer, the connection's receive buffer, all freed unwiped by libcurl) are wiped by the allocator the
 * library gives libcurl (CurlTransport.globalInit), so none should be found either. In a host that called
 * curl_global_init before the library, libcurl keeps the host's allocator and those copies would remain.
 *
 * Everything the library logs (telenorid_set_log_callback at DEBUG, from the start) is searched for the same
 * secrets: a log line is a copy the host keeps, prints and ships.
 *
 * The scanner proves itself first: a copy planted in the heap must be found.
 * Run from the repository root (as Tests/c/run.sh does). Ends with "N passed, M failed". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "child_process.h"
#include "check.h"

#define S(expected, call) check_report((call) == (expected), __FILE__, __LINE__, #call)
#define REDIRECT "http://127.0.0.1:53682/callback"
#define MAX_SECRET 1024 /* an RS256 access token of secrets_provider.py is some 700 bytes */
#define MAX_SECRETS 48
#define CHUNK (4u << 20)
#define MAPS_SIZE (1u << 20)
#define LOG_SIZE (1u << 20)

struct secret {
    char what[64];
    size_t length;
    unsigned char masked[MAX_SECRET];
};

/* One mmap'd arena, skipped by the scan: the mask, the masked secrets, the read buffer for
 * /proc/self/mem (which fills with whatever it reads), the text of /proc/self/maps and the library's log,
 * searched on its own (log_copies). */
static struct arena {
    unsigned char key[MAX_SECRET];
    struct secret secrets[MAX_SECRETS];
    int count;
    unsigned char chunk[CHUNK];
    char maps[MAPS_SIZE];
    char log[LOG_SIZE];
    size_t log_length;
} *arena;

static struct {
    char issuer[256], client_id[128];
    int secret; /* index of the client secret in arena->secrets */
    pid_t pid;
} provider = {"", "", -1, 0};

/* memset that the compiler may not drop because the buffer is dead afterwards. */
static void wipe(void *buffer, size_t size) {
    volatile unsigned char *bytes = buffer;
    while (size--) *bytes++ = 0;
}

/* Remembers `value` (its first `length` bytes) masked, unless it is already known. */
static int remember(const char *what, const char *value, size_t length) {
    if (!CHECK(value != NULL && length > 0 && length < MAX_SECRET && arena->count < MAX_SECRETS)) return -1;
    struct secret *slot = &arena->secrets[arena->count];
    for (size_t i = 0; i < length; i++) slot->masked[i] = (unsigned char)value[i] ^ arena->key[i];
    slot->length = length;
    for (int i = 0; i < arena->count; i++) {
        if (arena->secrets[i].length == length && memcmp(arena->secrets[i].masked, slot->masked, length) == 0) return i;
    }
    snprintf(slot->what, sizeof slot->what, "%s", what);
    return arena->count++;
}

/* Remembers a string the library handed out and gives it back, wiped. Returns its index, or -1. */
static int take(const char *what, char *value) {
    int index = -1;
    if (value) index = remember(what, value, strlen(value));
    else CHECK(value != NULL);
    telenorid_string_free(value);
    return index;
}

/* Does the masked secret `s` start at `at`? Compares without ever unmasking it. */
static int matches(const struct secret *s, const unsigned char *at) {
    for (size_t i = 0; i < s->length; i++) {
        if ((at[i] ^ arena->key[i]) != s->masked[i]) return 0;
    }
    return 1;
}

static void print_context(const unsigned char *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) putchar(bytes[i] >= 0x20 && bytes[i] < 0x7F ? bytes[i] : '.');
}

/* The log callback: every line, "<level> <event> <message>\n", into the arena. */
static void capture_log(void *user_data, int32_t level, const char *event, const char *message) {
    (void)user_data;
    size_t room = LOG_SIZE - arena->log_length;
    int written = snprintf(arena->log + arena->log_length, room, "%d %s %s\n", (int)level, event, message);
    if (written > 0 && (size_t)written < room) arena->log_length += (size_t)written;
}

/* Copies of any secret in the log, each printed with its line. */
static int log_copies(void) {
    int copies = 0;
    for (int k = 0; k < arena->count; k++) {
        const struct secret *s = &arena->secrets[k];
        for (size_t at = 0; at + s->length <= arena->log_length; at++) {
            if (!matches(s, (const unsigned char *)arena->log + at)) continue;
            const char *line = arena->log + at;
            while (line > arena->log && line[-1] != '\n') line--;
            printf("%s found in the log: ", s->what);
            print_context((const unsigned char *)line, (size_t)(strchr(line, '\n') - line));
            putchar('\n');
            copies++;
        }
    }
    return copies;
}

/* Copies of secret `only` (or of every secret, when -1) in this process's readable memory. Each is
 * printed with its region when `report`; *planted_seen is set when one is at `planted`. */
static int scan(int only, const void *planted, int *planted_seen, int report) {
    int maps = open("/proc/self/maps", O_RDONLY), mem = open("/proc/self/mem", O_RDONLY);
    if (!CHECK(maps >= 0 && mem >= 0)) return -1;
    size_t used = 0;
    ssize_t got;
    while (used < MAPS_SIZE - 1 && (got = read(maps, arena->maps + used, MAPS_SIZE - 1 - used)) > 0) used += (size_t)got;
    arena->maps[used] = '\0';
    close(maps);
    const uintptr_t arena_start = (uintptr_t)arena, arena_end = arena_start + sizeof *arena;
    const size_t step = CHUNK - (MAX_SECRET - 1); /* chunks overlap, so no copy straddles two unseen */
    int found = 0;
    for (char *line = strtok(arena->maps, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long start = 0, end = 0;
        char perms[5] = "";
        if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3 || perms[0] != 'r') continue;
        if (start < arena_end && end > arena_start) continue;
        for (unsigned long offset = start; offset < end; offset += step) {
            size_t want = end - offset < CHUNK ? end - offset : CHUNK;
            got = pread(mem, arena->chunk, want, (off_t)offset);
            if (got <= 0) break; /* [vvar] and the like cannot be read */
            int last = offset + (size_t)got >= end;
            for (int k = 0; k < arena->count; k++) {
                if (only >= 0 && k != only) continue;
                const struct secret *s = &arena->secrets[k];
                const unsigned char first = s->masked[0] ^ arena->key[0];
                for (size_t i = 0; i + s->length <= (size_t)got; i++) {
                    const unsigned char *hit = memchr(arena->chunk + i, first, (size_t)got - s->length + 1 - i);
                    if (!hit) break;
                    i = (size_t)(hit - arena->chunk);
                    if ((i >= step && !last) || !matches(s, hit)) continue;
                    found++;
                    unsigned long address = offset + i;
                    if (planted_seen && address == (uintptr_t)planted) *planted_seen = 1;
                    if (!report) continue;
                    size_t before = i < 24 ? i : 24, after = (size_t)got - i - s->length;
                    after = after < 24 ? after : 24;
                    printf("copy of %s at 0x%lx in %s\n    ...", s->what, address, line);
                    print_context(hit - before, before);
                    printf("[SECRET]");
                    print_context(hit + s->length, after);
                    printf("...\n");
                }
            }
        }
    }
    close(mem);
    fflush(stdout);
    return found;
}

/* ------------------------------------------------------------------------------------------------
 * The provider, in its own process
 * --------------------------------------------------------------------------------------------- */

/* The JSON string value after `key` in `line`: its start and length, in place (field() would copy a secret). */
static const char *field_span(const char *line, const char *key, size_t *length) {
    const char *start = strstr(line, key);
    if (!start) return NULL;
    start += strlen(key);
    const char *end = strchr(start, '"');
    if (!end) return NULL;
    *length = (size_t)(end - start);
    return start;
}

static int start_provider(void) {
    char *argv[] = {"python3", "Tests/c/secrets_provider.py", NULL};
    char line[1024];
    int ok = first_line(argv, line, sizeof line, &provider.pid);
    size_t issuer_length = 0, id_length = 0, secret_length = 0;
    const char *issuer = field_span(line, "\"issuer\": \"", &issuer_length);
    const char *id = field_span(line, "\"client_id\": \"", &id_length);
    const char *secret = field_span(line, "\"client_secret\": \"", &secret_length);
    ok = ok && issuer && id && secret && issuer_length < sizeof provider.issuer && id_length < sizeof provider.client_id;
    if (ok) {
        memcpy(provider.issuer, issuer, issuer_length);
        memcpy(provider.client_id, id, id_length);
        provider.secret = remember("the client secret", secret, secret_length);
    }
    wipe(line, sizeof line);
    return ok && provider.secret >= 0;
}

static void stop_provider(void) {
    if (provider.pid > 0) {
        kill(provider.pid, SIGTERM);
        waitpid(provider.pid, NULL, 0);
    }
}

/* The browser: where the authorization URL redirects to, malloc'd, or NULL. */
static char *authorize(const char *url) {
    char *argv[] = {"python3", "Tests/c/secrets_provider.py", "authorize", (char *)url, NULL};
    char line[2048];
    return first_line(argv, line, sizeof line, NULL) ? strdup(line) : NULL;
}

/* ------------------------------------------------------------------------------------------------
 * The sign-in
 * --------------------------------------------------------------------------------------------- */

/* Standard base64 (RFC 4648 §4) of `in` into `out`, NUL-terminated. */
static void base64(const unsigned char *in, size_t length, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < length; i += 3) {
        uint32_t group = (uint32_t)in[i] << 16 | (i + 1 < length ? (uint32_t)in[i + 1] << 8 : 0) |
                         (i + 2 < length ? in[i + 2] : 0);
        *out++ = alphabet[group >> 18 & 63];
        *out++ = alphabet[group >> 12 & 63];
        *out++ = i + 1 < length ? alphabet[group >> 6 & 63] : '=';
        *out++ = i + 2 < length ? alphabet[group & 63] : '=';
    }
    *out = '\0';
}

/* The secret as client_secret_basic sends it, base64("id:secret") (RFC 6749 §2.3.1; both parts are
 * unreserved characters, so form-encoding leaves them alone), is a secret too. */
static void remember_basic_credentials(void) {
    unsigned char credentials[MAX_SECRET];
    char encoded[MAX_SECRET * 4 / 3 + 4];
    const struct secret *s = &arena->secrets[provider.secret];
    size_t id = strlen(provider.client_id);
    if (!CHECK(id + 1 + s->length <= sizeof credentials && (id + 1 + s->length + 2) / 3 * 4 < MAX_SECRET)) return;
    memcpy(credentials, provider.client_id, id);
    credentials[id] = ':';
    for (size_t i = 0; i < s->length; i++) credentials[id + 1 + i] = s->masked[i] ^ arena->key[i];
    base64(credentials, id + 1 + s->length, encoded);
    remember("the client_secret_basic credentials", encoded, strlen(encoded));
    wipe(credentials, sizeof credentials);
    wipe(encoded, sizeof encoded);
}

/* Sets the client secret, unmasked for the moment of the call into a buffer wiped after it. */
static void set_client_secret(telenorid_config_builder *builder) {
    char secret[MAX_SECRET];
    const struct secret *s = &arena->secrets[provider.secret];
    for (size_t i = 0; i < s->length; i++) secret[i] = (char)(s->masked[i] ^ arena->key[i]);
    secret[s->length] = '\0';
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_SECRET, secret));
    wipe(secret, sizeof secret);
}

/* Remembers the state's access and refresh tokens, labelled with `when` and the method. */
static void take_tokens(telenorid_auth_state *state, const char *when, const char *method) {
    char what[64], *access = NULL, *refresh = NULL;
    S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ACCESS_TOKEN, &access));
    snprintf(what, sizeof what, "the %s access token (%s)", when, method);
    take(what, access);
    S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_REFRESH_TOKEN, &refresh));
    snprintf(what, sizeof what, "the %s refresh token (%s)", when, method);
    take(what, refresh);
}

/* The state survives a save: serialized (the string is released with telenorid_string_free, which wipes
 * it), restored, then kept in a file, opened from there and refreshed, which reads the file and rewrites
 * it. The restored state must hold the very tokens (remember() finds them known), the refreshed one new
 * ones. Returns the state opened from the file, for the caller to revoke and free. */
static telenorid_auth_state *save_and_restore(telenorid_client *client, telenorid_auth_state *state, const char *method) {
    char *json = NULL, path[] = "/tmp/telenorid-secrets-XXXXXX";
    telenorid_auth_state *restored = NULL, *opened = NULL;
    S(TELENORID_OK, telenorid_auth_state_serialize(state, &json));
    CHECK_CONTAINS(json, "\"refresh_token\":\"");
    if (json) S(TELENORID_OK, telenorid_auth_state_restore(client, json, &restored));
    telenorid_string_free(json);
    int known = arena->count;
    if (restored) take_tokens(restored, "restored", method);
    CHECK(arena->count == known); /* the same two tokens */

    int descriptor = mkstemp(path); /* a name of our own; the library replaces the file by rename */
    if (!CHECK(descriptor >= 0)) return restored;
    close(descriptor);
    if (restored) S(TELENORID_OK, telenorid_auth_state_bind_file(restored, path));
    telenorid_auth_state_free(restored);
    S(TELENORID_OK, telenorid_auth_state_open_file(client, path, &opened));
    if (opened) {
        take_tokens(opened, "file's", method);
        CHECK(arena->count == known);
        S(TELENORID_OK, telenorid_auth_state_refresh(opened));
        take_tokens(opened, "file-refreshed", method);
        CHECK(arena->count == known + 2);
    }
    unlink(path);
    char lock[sizeof path + 5];
    snprintf(lock, sizeof lock, "%s.lock", path);
    unlink(lock);
    return opened;
}

/* The value of the unpadded base64url (RFC 4648 §5) `in` into `out`; its length. */
static size_t base64url_decode(const char *in, size_t length, unsigned char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    uint32_t bits = 0;
    size_t count = 0, pending = 0;
    for (size_t i = 0; i < length; i++) {
        bits = bits << 6 | (uint32_t)(strchr(alphabet, in[i]) - alphabet);
        pending += 6;
        if (pending >= 8) {
            pending -= 8;
            out[count++] = (unsigned char)(bits >> pending);
        }
    }
    bits = 0;
    return count;
}

/* Remembers the private d of the saved state's DPoP key (a P-256 JWK, RFC 7518 §6.2.2.1: 43 characters,
 * 32 bytes), as the text and as the number, decoded into a buffer wiped after. Returns the text's index. */
static int take_dpop_key(const char *json) {
    const char *key = json ? strstr(json, "\"dpop_key\":") : NULL;
    const char *d = key ? strstr(key, "\"d\":\"") : NULL;
    if (!CHECK(d != NULL)) return -1;
    d += 5;
    const char *end = strchr(d, '"');
    if (!CHECK(end != NULL && end - d == 43)) return -1;
    unsigned char number[32];
    int text = remember("the DPoP key's d", d, 43);
    if (CHECK(base64url_decode(d, 43, number) == sizeof number)) remember("the DPoP key's d as bytes", (const char *)number, sizeof number);
    wipe(number, sizeof number);
    return text;
}

/* The state's DPoP key (its private JWK, {"v":1,"alg":"ES256","jwk":{...}} in the saved state's
 * "dpop_key") given to a configuration as the client's private key for private_key_jwt, read back, and
 * freed with it: the builder and the configuration hold the key's text only in memory they wipe (the
 * parsed key holds d as a number). The JWK is copied out of the saved state into a stack buffer wiped
 * right after the call. Then d (arena->secrets[d]) must be nowhere: a copy now is one the builder, the
 * build or the read-back left in freed memory, which later allocations might overwrite before the final
 * scan. */
static void configure_private_key(telenorid_auth_state *state, int d) {
    char *json = NULL, jwk[512];
    S(TELENORID_OK, telenorid_auth_state_serialize(state, &json));
    const char *key = json ? strstr(json, "\"dpop_key\":") : NULL;
    const char *member = key ? strstr(key, "\"jwk\":") : NULL;
    const char *open = member ? strchr(member, '{') : NULL, *close = open ? strchr(open, '}') : NULL;
    size_t length = close ? (size_t)(close - open + 1) : 0;
    if (CHECK(close != NULL && length < sizeof jwk)) {
        memcpy(jwk, open, length);
        jwk[length] = '\0';
    }
    telenorid_string_free(json);
    if (!close || length >= sizeof jwk) return;
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL;
    char *read_back = NULL;
    S(TELENORID_OK, telenorid_config_builder_new(&builder));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, provider.issuer));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, provider.client_id));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, REDIRECT));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, "private_key_jwt"));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_PRIVATE_KEY, jwk));
    wipe(jwk, sizeof jwk);
    S(TELENORID_OK, telenorid_config_builder_build(builder, &config));
    S(TELENORID_OK, telenorid_config_get(config, TELENORID_CONFIG_CLIENT_PRIVATE_KEY, &read_back));
    CHECK_CONTAINS(read_back, "\"d\":\"");
    telenorid_string_free(read_back);
    telenorid_config_free(config);
    telenorid_config_builder_free(builder);
    if (d >= 0) CHECK(scan(d, NULL, NULL, 1) == 0);
}

/* The pending authorization survives the app being killed while the browser is open: serialized (the
 * string, holding the verifier and the DPoP key's private JWK, is released with telenorid_string_free),
 * the original freed, and restored under `config`. Right after the restore the verifier must be only
 * where the restored request keeps it, and d nowhere as text (the live key holds it as a number): any
 * other copy is one the save or the restore left in freed memory, which the allocations before the final
 * scan may happen to overwrite. Returns the restored request. */
static telenorid_pending_auth *save_and_restore_pending(telenorid_config *config, telenorid_pending_auth *pending,
                                                        int verifier) {
    char *json = NULL;
    telenorid_pending_auth *restored = NULL;
    S(TELENORID_OK, telenorid_pending_auth_serialize(pending, &json));
    CHECK_CONTAINS(json, "\"code_verifier\":\"");
    int d = take_dpop_key(json);
    telenorid_pending_auth_free(pending);
    if (json) S(TELENORID_OK, telenorid_pending_auth_restore(config, json, &restored));
    telenorid_string_free(json);
    CHECK(restored != NULL);
    if (verifier >= 0 && !CHECK(scan(verifier, NULL, NULL, 0) == 1)) scan(verifier, NULL, NULL, 1);
    if (d >= 0) CHECK(scan(d, NULL, NULL, 1) == 0);
    return restored;
}

/* A sign-in whose code and tokens are bound to a DPoP key the library made (ES256): the pending
 * authorization is saved and restored before the callback, and so is the state after the exchange; each
 * save writes the key's private JWK, each restore reads it back into a key that signs the next proof.
 * Nothing of the key may be left once the states are freed. */
static void dpop_sign_in(void) {
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL, *discovered = NULL;
    telenorid_client *client = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL, *restored = NULL;
    char *url = NULL, *verifier = NULL, *redirect = NULL, *json = NULL, *type = NULL, *thumbprint = NULL;

    S(TELENORID_OK, telenorid_config_builder_new(&builder));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, provider.issuer));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, provider.client_id));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, REDIRECT));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_DPOP_SIGNING_ALG, "ES256"));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_DPOP_BIND_AUTHORIZATION_CODE, "true"));
    set_client_secret(builder);
    S(TELENORID_OK, telenorid_config_builder_build(builder, &config));
    S(TELENORID_OK, telenorid_client_new(config, &client));
    S(TELENORID_OK, telenorid_client_config(client, &discovered));
    S(TELENORID_OK, telenorid_auth_request_new(discovered, &request));
    S(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    S(TELENORID_OK, telenorid_pending_auth_code_verifier(pending, &verifier));
    int verifier_index = take("the code verifier (DPoP)", verifier);
    if (pending) pending = save_and_restore_pending(discovered, pending, verifier_index);
    S(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    redirect = url ? authorize(url) : NULL;
    CHECK(redirect != NULL);
    if (redirect) S(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback));
    if (callback) S(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    if (state) {
        take_tokens(state, "first", "DPoP");
        S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_TYPE, &type));
        CHECK_CONTAINS(type, "DPoP");
        S(TELENORID_OK, telenorid_auth_state_serialize(state, &json));
        int d = take_dpop_key(json);
        if (json) S(TELENORID_OK, telenorid_auth_state_restore(client, json, &restored));
        telenorid_string_free(json);
        /* The live keys hold d as a number, never as text: a copy of the text now is one the restore left
         * in freed memory, which the allocations before the final scan may happen to overwrite. */
        if (d >= 0) CHECK(scan(d, NULL, NULL, 1) == 0);
        configure_private_key(state, d);
    }
    if (restored) {
        S(TELENORID_OK, telenorid_auth_state_get(restored, TELENORID_TOKEN_DPOP_THUMBPRINT, &thumbprint));
        CHECK(thumbprint != NULL);
        S(TELENORID_OK, telenorid_auth_state_refresh(restored)); /* the provider verifies the restored key's proof */
        take_tokens(restored, "restored-refreshed", "DPoP");
    }
    telenorid_string_free(thumbprint);
    telenorid_string_free(type);
    telenorid_auth_state_free(restored);
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    free(redirect);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_client_free(client);
    telenorid_config_free(discovered);
    telenorid_config_free(config);
    telenorid_config_builder_free(builder);
}

/* Remembers the state's Native SSO device secret (Native SSO §3.4); its index. */
static int take_device_secret(telenorid_auth_state *state, const char *method) {
    char what[64], *secret = NULL;
    S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_DEVICE_SECRET, &secret));
    snprintf(what, sizeof what, "the device secret (%s)", method);
    return take(what, secret);
}

/* Remembers the parts of a compact JWS (RFC 7515 §7.1) `token` a verification handles apart from the
 * token, their indexes in `parts`: its signing input (the first two parts as sent, §5.2), its signature as
 * sent and decoded, and its decoded payload. The decoded ones go through a stack buffer wiped after. */
static int take_jws_parts(const char *token, const char *method, int parts[4]) {
    const char *first = token ? strchr(token, '.') : NULL, *second = first ? strchr(first + 1, '.') : NULL;
    if (!CHECK(second != NULL)) return 0;
    char what[64];
    unsigned char decoded[MAX_SECRET];
    size_t payload = (size_t)(second - first - 1), signature = strlen(second + 1);
    if (!CHECK(payload * 3 / 4 < sizeof decoded && signature * 3 / 4 < sizeof decoded)) return 0;
    snprintf(what, sizeof what, "the access token's signing input (%s)", method);
    parts[0] = remember(what, token, (size_t)(second - token));
    snprintf(what, sizeof what, "the access token's signature (%s)", method);
    parts[1] = remember(what, second + 1, signature);
    snprintf(what, sizeof what, "the access token's decoded signature (%s)", method);
    parts[2] = remember(what, (const char *)decoded, base64url_decode(second + 1, signature, decoded));
    snprintf(what, sizeof what, "the access token's decoded payload (%s)", method);
    parts[3] = remember(what, (const char *)decoded, base64url_decode(first + 1, payload, decoded));
    wipe(decoded, sizeof decoded);
    return parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0 && parts[3] >= 0;
}

/* The access token is an RFC 9068 JWT of the provider's: a resource server for <issuer>/api verifies it,
 * which parses the token where the call put it, in storage the library wipes, and keeps its signing input,
 * signature and payload there too; the claims it gives are no secret. The token is then released (it is
 * known already: remember() finds it), wiped. Right after, before later allocations may overwrite freed
 * memory, the signing input and the signature as sent may be only where the whole token still is (the
 * state holds it), and the decoded signature and payload nowhere. */
static void verify_access_token(telenorid_client *client, telenorid_auth_state *state, const char *method) {
    char audience[300], what[64], *access = NULL, *client_id = NULL;
    telenorid_resource_server *server = NULL;
    telenorid_token_info *info = NULL;
    int parts[4] = {-1, -1, -1, -1};
    snprintf(audience, sizeof audience, "%s/api", provider.issuer);
    S(TELENORID_OK, telenorid_resource_server_new(client, audience, &server));
    S(TELENORID_OK, telenorid_auth_state_get(state, TELENORID_TOKEN_ACCESS_TOKEN, &access));
    int known = take_jws_parts(access, method, parts);
    if (server && access && S(TELENORID_OK, telenorid_resource_server_verify_access_token(server, access, &info))) {
        S(TELENORID_OK, telenorid_token_info_get(info, TELENORID_INFO_CLIENT_ID, &client_id));
        CHECK_STR(provider.client_id, client_id);
        telenorid_string_free(client_id);
    }
    snprintf(what, sizeof what, "the verified access token (%s)", method);
    int token = take(what, access);
    telenorid_token_info_free(info);
    telenorid_resource_server_free(server);
    if (!known || token < 0) return;
    int whole = scan(token, NULL, NULL, 0), leftover = 0;
    for (int i = 0; i < 4; i++) {
        int found = scan(parts[i], NULL, NULL, 0), expected = i < 2 ? whole : 0;
        if (found != expected) scan(parts[i], NULL, NULL, 1);
        leftover += found > expected ? found - expected : 0;
    }
    printf("%s: %d copies of its parts beside the token's %d\n", what, leftover, whole);
    CHECK(leftover == 0);
}

static void sign_in(const char *method) {
    telenorid_config_builder *builder = NULL;
    telenorid_config *config = NULL, *discovered = NULL;
    telenorid_client *client = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    telenorid_authorization_callback *callback = NULL;
    telenorid_auth_state *state = NULL;
    char *url = NULL, *verifier = NULL, *redirect = NULL, *userinfo = NULL, what[64];

    S(TELENORID_OK, telenorid_config_builder_new(&builder));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_ISSUER, provider.issuer));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_CLIENT_ID, provider.client_id));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_REDIRECT_URI, REDIRECT));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD, method));
    S(TELENORID_OK, telenorid_config_builder_set(builder, TELENORID_CONFIG_SCOPE, "openid device_sso"));
    set_client_secret(builder);
    S(TELENORID_OK, telenorid_config_builder_build(builder, &config));
    S(TELENORID_OK, telenorid_client_new(config, &client));
    S(TELENORID_OK, telenorid_client_config(client, &discovered)); /* with the discovered endpoints */
    S(TELENORID_OK, telenorid_auth_request_new(discovered, &request));
    S(TELENORID_OK, telenorid_auth_request_build(request, &pending));
    S(TELENORID_OK, telenorid_pending_auth_code_verifier(pending, &verifier));
    snprintf(what, sizeof what, "the code verifier (%s)", method);
    take(what, verifier);
    S(TELENORID_OK, telenorid_pending_auth_url(pending, &url));
    redirect = url ? authorize(url) : NULL;
    CHECK(redirect != NULL);
    if (redirect) S(TELENORID_OK, telenorid_pending_auth_handle_callback(pending, redirect, &callback));
    if (callback) S(TELENORID_OK, telenorid_client_exchange_code(client, callback, &state));
    if (state) {
        take_tokens(state, "first", method);
        int device_secret = take_device_secret(state, method);
        S(TELENORID_OK, telenorid_auth_state_refresh(state));
        take_tokens(state, "refreshed", method);
        verify_access_token(client, state, method);
        S(TELENORID_OK, telenorid_auth_state_userinfo(state, &userinfo));
        CHECK_CONTAINS(userinfo, "\"sub\":\"alice\"");
        telenorid_auth_state *opened = save_and_restore(client, state, method);
        /* Kept through the refreshes, the save and the file: the same secret (remember() finds it). */
        if (opened) CHECK(take_device_secret(opened, method) == device_secret);
        if (opened) S(TELENORID_OK, telenorid_auth_state_revoke(opened));
        telenorid_auth_state_free(opened);
    }
    telenorid_string_free(userinfo);
    telenorid_auth_state_free(state);
    telenorid_authorization_callback_free(callback);
    free(redirect);
    telenorid_string_free(url);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    telenorid_client_free(client);
    telenorid_config_free(discovered);
    telenorid_config_free(config);
    telenorid_config_builder_free(builder);
}

int main(void) {
    arena = mmap(NULL, sizeof *arena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (arena == MAP_FAILED) return 2;
    int random = open("/dev/urandom", O_RDONLY);
    if (random < 0 || read(random, arena->key, sizeof arena->key) != (ssize_t)sizeof arena->key) return 2;
    close(random);

    S(TELENORID_OK, telenorid_set_log_callback(capture_log, NULL, TELENORID_LOG_DEBUG));
    if (!CHECK(start_provider())) return finish_checks();
    remember_basic_credentials();

    /* The scanner finds a copy planted in the heap, where it is, and reports nothing else for it yet. */
    const struct secret *probe = &arena->secrets[provider.secret];
    unsigned char *planted = malloc(probe->length);
    int planted_seen = 0;
    if (planted) {
        for (size_t i = 0; i < probe->length; i++) planted[i] = probe->masked[i] ^ arena->key[i];
        CHECK(scan(provider.secret, planted, &planted_seen, 0) == 1);
        CHECK(planted_seen);
        wipe(planted, probe->length);
        free(planted);
    }

    sign_in("client_secret_basic");
    sign_in("client_secret_post");
    dpop_sign_in();
    stop_provider();

    int copies = scan(-1, NULL, NULL, 1);
    printf("%d secrets, %d copies\n", arena->count, copies);
    /* The client secret and its basic credentials; per method a verifier, three of each token, a device
     * secret and four parts of the verified access token; for DPoP a verifier, two of each token and the
     * key's d twice. */
    CHECK(arena->count == 33);
    CHECK(copies == 0);
    S(TELENORID_OK, telenorid_set_log_callback(NULL, NULL, 0));
    arena->log[arena->log_length] = 0;
    CHECK(strstr(arena->log, " http.request POST ") != NULL && strstr(arena->log, " token.refreshed ") != NULL);
    CHECK(log_copies() == 0);
    munmap(arena, sizeof *arena);
    return finish_checks();
}
