/* Reading a telenorid_params bundle in the C tests: the value of one name. */
#ifndef TELENORID_TEST_PARAMS_H
#define TELENORID_TEST_PARAMS_H

#include <string.h>
#include <telenorid.h>

/* The value of `name` in `params`, or NULL; the caller frees it. */
static inline char *param(const telenorid_params *params, const char *name) {
    size_t count = 0;
    char *found = NULL;
    if (telenorid_params_count(params, &count) != TELENORID_OK) return NULL;
    for (size_t i = 0; i < count && !found; i++) {
        char *key = NULL;
        if (telenorid_params_name(params, i, &key) == TELENORID_OK && strcmp(key, name) == 0)
            telenorid_params_value(params, i, &found);
        telenorid_string_free(key);
    }
    return found;
}

#endif
