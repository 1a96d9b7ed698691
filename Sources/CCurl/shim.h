/* libcurl for Swift. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift can neither call
 * nor export, so each argument type gets a typed inline wrapper. They are static inline: compiled into
 * the caller and never exported from libtelenorid.so. */
#include <curl/curl.h>

typedef size_t (*tnc_write_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode tnc_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tnc_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tnc_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tnc_setopt_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode tnc_setopt_write_callback(CURL *curl, CURLoption option, tnc_write_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}
static inline CURLcode tnc_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
