/* Loads libtelenorid with dlopen, as a plugin host or a language runtime does, and goes through the
 * version check, a PKCE pair and a full authorization URL with symbols looked up at run time. Built
 * without -ltelenorid. Usage: test_dlopen path/to/libtelenorid.so.0 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>
#include <telenorid.h>
#include "check.h"

static void *library;

/* ISO C has no conversion between object and function pointers, so dlsym's result is copied into the
 * function pointer bytewise, as POSIX's own dlsym example intends. `name` must be a function the header
 * declares: __typeof__ gives the pointer the header's exact type. */
#define LOOKUP(name) __typeof__(&name) p_##name = NULL; lookup(#name, &p_##name, sizeof p_##name)

static void lookup(const char *name, void *function_pointer, size_t size) {
    void *symbol = dlsym(library, name);
    if (!check_report(symbol != NULL && size == sizeof symbol, __FILE__, __LINE__, "dlsym finds the function")) {
        fprintf(stderr, "  missing symbol %s: %s\n", name, dlerror());
        exit(1);
    }
    memcpy(function_pointer, &symbol, sizeof symbol);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s path/to/libtelenorid.so.0\n", argv[0]); return 2; }
    library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror()); return 1; }

    LOOKUP(telenorid_version);
    LOOKUP(telenorid_version_string);
    LOOKUP(telenorid_status_str);
    LOOKUP(telenorid_error_last);
    LOOKUP(telenorid_error_message);
    LOOKUP(telenorid_error_free);
    LOOKUP(telenorid_string_free);
    LOOKUP(telenorid_pkce_new);
    LOOKUP(telenorid_pkce_from_verifier);
    LOOKUP(telenorid_pkce_verifier);
    LOOKUP(telenorid_pkce_challenge);
    LOOKUP(telenorid_pkce_free);
    LOOKUP(telenorid_config_from_json);
    LOOKUP(telenorid_config_free);
    LOOKUP(telenorid_auth_request_new);
    LOOKUP(telenorid_auth_request_set);
    LOOKUP(telenorid_auth_request_build);
    LOOKUP(telenorid_auth_request_free);
    LOOKUP(telenorid_pending_auth_url);
    LOOKUP(telenorid_pending_auth_state);
    LOOKUP(telenorid_pending_auth_free);

    /* The loaded library is the one the header describes: same major, minor at least the header's. */
    uint32_t version = p_telenorid_version();
    CHECK(version == TELENORID_VERSION_NUMBER);
    CHECK((version >> 16) == TELENORID_VERSION_MAJOR && ((version >> 8) & 0xff) >= TELENORID_VERSION_MINOR);
    CHECK_STR(TELENORID_VERSION_STRING, p_telenorid_version_string());
    CHECK_STR("state mismatch", p_telenorid_status_str(TELENORID_E_STATE_MISMATCH));
    printf("library   %s (0x%06x)\n", p_telenorid_version_string(), (unsigned)version);

    /* RFC 7636 appendix B, then a fresh pair. */
    telenorid_pkce *pkce = NULL;
    char *verifier = NULL, *challenge = NULL;
    CHECK(p_telenorid_pkce_from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", &pkce) == TELENORID_OK);
    CHECK(p_telenorid_pkce_challenge(pkce, &challenge) == TELENORID_OK);
    CHECK_STR("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", challenge);
    p_telenorid_string_free(challenge);
    p_telenorid_pkce_free(pkce);
    pkce = NULL;
    challenge = NULL;
    CHECK(p_telenorid_pkce_new(0, &pkce) == TELENORID_OK);
    CHECK(p_telenorid_pkce_verifier(pkce, &verifier) == TELENORID_OK);
    CHECK(p_telenorid_pkce_challenge(pkce, &challenge) == TELENORID_OK);
    CHECK(verifier && strlen(verifier) == 64);
    CHECK(challenge && strlen(challenge) == 43);
    printf("verifier  %s\nchallenge %s\n", verifier ? verifier : "(none)", challenge ? challenge : "(none)");
    p_telenorid_string_free(verifier);
    p_telenorid_string_free(challenge);
    p_telenorid_pkce_free(pkce);

    /* Errors work across dlopen too. */
    pkce = NULL;
    CHECK(p_telenorid_pkce_new(5, &pkce) == TELENORID_E_INVALID_ARGUMENT && pkce == NULL);
    telenorid_error *error = p_telenorid_error_last();
    CHECK(error != NULL && p_telenorid_error_message(error)[0] != 0);
    p_telenorid_error_free(error);

    /* A full authorization URL. */
    telenorid_config *config = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *url = NULL, *state = NULL;
    const char *json = "{\"issuer\":\"https://id.example.com\",\"client_id\":\"c\",\"redirect_uri\":\"com.example.app:/cb\","
                       "\"scopes\":[\"openid\",\"profile\"],\"authorization_endpoint\":\"https://id.example.com/authorize\"}";
    CHECK(p_telenorid_config_from_json(json, NULL, &config) == TELENORID_OK);
    CHECK(p_telenorid_auth_request_new(config, &request) == TELENORID_OK);
    CHECK(p_telenorid_auth_request_set(request, TELENORID_AUTH_PROMPT, "login") == TELENORID_OK);
    CHECK(p_telenorid_auth_request_build(request, &pending) == TELENORID_OK);
    CHECK(p_telenorid_pending_auth_url(pending, &url) == TELENORID_OK);
    CHECK(p_telenorid_pending_auth_state(pending, &state) == TELENORID_OK);
    static const char prefix[] = "https://id.example.com/authorize?response_type=code&client_id=c"
                                 "&redirect_uri=com.example.app%3A%2Fcb&scope=openid%20profile&state=";
    CHECK(url && strncmp(url, prefix, sizeof prefix - 1) == 0);
    CHECK(url && state && strncmp(url + sizeof prefix - 1, state, strlen(state)) == 0);
    CHECK(url && strstr(url, "&code_challenge_method=S256") && strstr(url, "&prompt=login") && strstr(url, "&nonce="));
    printf("url       %s\n", url ? url : "(none)");
    p_telenorid_string_free(url);
    p_telenorid_string_free(state);
    p_telenorid_pending_auth_free(pending);
    p_telenorid_auth_request_free(request);
    p_telenorid_config_free(config);
    /* Unloading is the host's choice; the Swift runtime inside may stay mapped, which is fine. */
    CHECK(dlclose(library) == 0);
    return finish_checks();
}
