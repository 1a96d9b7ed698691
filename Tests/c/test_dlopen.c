/* Loads libtelenorid with dlopen, as a plugin host or a language runtime does, and makes a PKCE pair and
 * an authorization URL through symbols looked up at run time. Usage: test_dlopen path/to/libtelenorid.so.0 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>
#include <telenorid.h>
#include "check.h"

#define LOOKUP(handle, name) ((__typeof__(&name))dlsym_checked((handle), #name))

static void *dlsym_checked(void *handle, const char *name) {
    void *symbol = dlsym(handle, name);
    CHECK(symbol != NULL);
    if (!symbol) fprintf(stderr, "missing symbol %s\n", name);
    return symbol;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s libtelenorid.so\n", argv[0]); return 2; }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }

    CHECK(LOOKUP(lib, telenorid_version)() == TELENORID_VERSION_NUMBER);
    telenorid_pkce *pkce = NULL;
    char *verifier = NULL, *challenge = NULL, *url = NULL;
    CHECK(LOOKUP(lib, telenorid_pkce_new)(0, &pkce) == TELENORID_OK);
    CHECK(LOOKUP(lib, telenorid_pkce_verifier)(pkce, &verifier) == TELENORID_OK);
    CHECK(LOOKUP(lib, telenorid_pkce_challenge)(pkce, &challenge) == TELENORID_OK);
    printf("verifier  %s\nchallenge %s\n", verifier, challenge);
    LOOKUP(lib, telenorid_string_free)(verifier);
    LOOKUP(lib, telenorid_string_free)(challenge);
    LOOKUP(lib, telenorid_pkce_free)(pkce);

    telenorid_config *config = NULL;
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    const char *json = "{\"issuer\":\"https://id.example.com\",\"client_id\":\"c\",\"redirect_uri\":\"com.example.app:/cb\","
                       "\"authorization_endpoint\":\"https://id.example.com/authorize\"}";
    CHECK(LOOKUP(lib, telenorid_config_from_json)(json, NULL, &config) == TELENORID_OK);
    CHECK(LOOKUP(lib, telenorid_auth_request_new)(config, &request) == TELENORID_OK);
    CHECK(LOOKUP(lib, telenorid_auth_request_build)(request, &pending) == TELENORID_OK);
    CHECK(LOOKUP(lib, telenorid_pending_auth_url)(pending, &url) == TELENORID_OK);
    CHECK(url && strncmp(url, "https://id.example.com/authorize?response_type=code&client_id=c&", 64) == 0);
    printf("url       %s\n", url);
    LOOKUP(lib, telenorid_string_free)(url);
    LOOKUP(lib, telenorid_pending_auth_free)(pending);
    LOOKUP(lib, telenorid_auth_request_free)(request);
    LOOKUP(lib, telenorid_config_free)(config);
    dlclose(lib);
    return finish_checks();
}
