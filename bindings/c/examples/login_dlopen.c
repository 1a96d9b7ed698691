/* The full sign-in (login_flow.h) with libtelenorid loaded at run time, as a plugin host or a program
 * with an optional dependency does: dlopen + dlsym, nothing linked.
 *   cc login_dlopen.c $(pkg-config --cflags telenorid) -ldl -o login_dlopen
 * TELENORID_LIBRARY names the library to load (default "libtelenorid.so.0", found by the loader). */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <stdlib.h>

#include "login_flow.h"

/* ISO C has no conversion from void * to a function pointer; POSIX guarantees this copy works. */
#define LOAD(field, name)                                                             \
    do {                                                                              \
        void *symbol = dlsym(library, name);                                          \
        if (symbol == NULL) {                                                         \
            fprintf(stderr, "%s: %s\n", name, dlerror());                             \
            missing = 1;                                                              \
        } else {                                                                      \
            memcpy(&api.field, &symbol, sizeof symbol);                               \
        }                                                                             \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = getenv("TELENORID_LIBRARY");
    /* RTLD_NODELETE: the library carries the Swift runtime, whose process-wide state (type metadata
     * caches, ...) is not made to be unmapped; dlclose then only drops the reference. */
    void *library = dlopen(path ? path : "libtelenorid.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    login_api api;
    int missing = 0;
    uint32_t (*version)(void) = NULL;
    void *version_symbol = dlsym(library, "telenorid_version");
    if (version_symbol != NULL) {
        memcpy(&version, &version_symbol, sizeof version_symbol);
    }
    /* The header's rule: same major version, library minor at least the header's. */
    if (version == NULL || version() >> 16 != TELENORID_VERSION_MAJOR ||
        ((version() >> 8) & 0xff) < TELENORID_VERSION_MINOR) {
        fprintf(stderr, "the library's version does not match telenorid.h %s\n", TELENORID_VERSION_STRING);
        dlclose(library);
        return 1;
    }
    LOAD(status_str, "telenorid_status_str");
    LOAD(error_last, "telenorid_error_last");
    LOAD(error_message, "telenorid_error_message");
    LOAD(error_oauth_error, "telenorid_error_oauth_error");
    LOAD(error_free, "telenorid_error_free");
    LOAD(string_free, "telenorid_string_free");
    LOAD(config_builder_new, "telenorid_config_builder_new");
    LOAD(config_builder_set, "telenorid_config_builder_set");
    LOAD(config_builder_build, "telenorid_config_builder_build");
    LOAD(config_builder_free, "telenorid_config_builder_free");
    LOAD(config_free, "telenorid_config_free");
    LOAD(client_new, "telenorid_client_new");
    LOAD(client_discover, "telenorid_client_discover");
    LOAD(client_config, "telenorid_client_config");
    LOAD(client_free, "telenorid_client_free");
    LOAD(auth_request_new, "telenorid_auth_request_new");
    LOAD(auth_request_build, "telenorid_auth_request_build");
    LOAD(auth_request_free, "telenorid_auth_request_free");
    LOAD(pending_auth_url, "telenorid_pending_auth_url");
    LOAD(pending_auth_handle_callback, "telenorid_pending_auth_handle_callback");
    LOAD(pending_auth_free, "telenorid_pending_auth_free");
    LOAD(authorization_callback_free, "telenorid_authorization_callback_free");
    LOAD(client_exchange_code, "telenorid_client_exchange_code");
    LOAD(auth_state_get, "telenorid_auth_state_get");
    LOAD(auth_state_userinfo, "telenorid_auth_state_userinfo");
    LOAD(auth_state_refresh, "telenorid_auth_state_refresh");
    LOAD(auth_state_revoke, "telenorid_auth_state_revoke");
    LOAD(auth_state_is_signed_in, "telenorid_auth_state_is_signed_in");
    LOAD(auth_state_free, "telenorid_auth_state_free");
    int result = missing ? 1 : login_run(&api, argc, argv);
    dlclose(library);
    return result;
}
