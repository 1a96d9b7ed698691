/* libcurl for Swift.
 *
 * curl_easy_setopt, curl_easy_getinfo and curl_share_setopt are C variadic functions, which Swift cannot
 * call. Each argument type the core needs therefore gets a typed wrapper here that forwards one argument
 * of exactly the type libcurl reads with va_arg for that option.
 *
 * Every wrapper is `static inline`: it is compiled into the Swift object code that calls it and has no
 * external linkage, so libtelenorid.so still exports only the telenorid_* C API (check with `nm -D`).
 * The prefix is tnc_ ("telenorid curl") rather than telenorid_ so that a symbol guard looking for
 * telenorid_* exports never confuses these helpers with the public API. */
#ifndef TELENORID_CCURL_SHIM_H
#define TELENORID_CCURL_SHIM_H

/* In the Embedded build the C library is the module CPlatform (Sources/CPlatform): included first, its
 * declarations (pthread_mutex_t, size_t...) belong to that module and not to this one. The standard build
 * has Glibc's module for them and does not put CPlatform on the include path. */
#if __has_include("platform.h")
#include "platform.h"
#endif
#include <curl/curl.h>

/* ---- curl_easy_setopt ---------------------------------------------------------------------------- */

/* Options libcurl reads as `long` (flags, timeouts, enums such as CURLOPT_SSLVERSION). */
static inline CURLcode tnc_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

/* Options libcurl reads as `char *`. libcurl copies these strings (all except CURLOPT_POSTFIELDS,
 * which goes through tnc_setopt_ptr because it is not copied). */
static inline CURLcode tnc_setopt_str(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

/* Options libcurl reads as an untyped object pointer: ERRORBUFFER, WRITEDATA, HEADERDATA, POSTFIELDS. */
static inline CURLcode tnc_setopt_ptr(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

/* Options libcurl reads as curl_off_t: the *_LARGE sizes. */
static inline CURLcode tnc_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

/* CURLOPT_HTTPHEADER and the other list options. */
static inline CURLcode tnc_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(curl, option, list);
}

/* CURLOPT_SHARE: attaches the easy handle to a share object (DNS and TLS session caches). */
static inline CURLcode tnc_setopt_share(CURL *curl, CURLSH *share) {
    return curl_easy_setopt(curl, CURLOPT_SHARE, share);
}

/* CURLOPT_CURLU: the transfer uses this already-parsed URL, the very object the caller inspected. */
static inline CURLcode tnc_setopt_curlu(CURL *curl, CURLU *url) {
    return curl_easy_setopt(curl, CURLOPT_CURLU, url);
}

/* CURLOPT_WRITEFUNCTION: called with each chunk of the response body. */
static inline CURLcode tnc_setopt_write_function(CURL *curl, curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
}

/* CURLOPT_HEADERFUNCTION: called with each complete response header line (same signature as a write
 * callback). */
static inline CURLcode tnc_setopt_header_function(CURL *curl, curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, callback);
}

/* CURLOPT_SOCKOPTFUNCTION: called with each new socket before it connects (line authentication's
 * socket hook, which may bind it to the cellular network or refuse it). */
static inline CURLcode tnc_setopt_sockopt_function(CURL *curl, curl_sockopt_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_SOCKOPTFUNCTION, callback);
}

/* CURLOPT_OPENSOCKETFUNCTION / CURLOPT_CLOSESOCKETFUNCTION: the transfer's sockets are created and closed
 * by the library, so a cancel from another thread knows which ones to shut down (TransferControl,
 * Sources/TelenoridCore/HTTP/TransferControl.swift, which an EasyHandle keeps). */
static inline CURLcode tnc_setopt_opensocket_function(CURL *curl, curl_opensocket_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, callback);
}
static inline CURLcode tnc_setopt_closesocket_function(CURL *curl, curl_closesocket_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_CLOSESOCKETFUNCTION, callback);
}

/* CURLOPT_PREREQFUNCTION (7.80.0): called once the connection is ready, just before the request is sent. */
static inline CURLcode tnc_setopt_prereq_function(CURL *curl, curl_prereq_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_PREREQFUNCTION, callback);
}

/* CURLOPT_XFERINFOFUNCTION: called at least once a second during a transfer; non-zero aborts it. */
static inline CURLcode tnc_setopt_xferinfo_function(CURL *curl, curl_xferinfo_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

/* ---- curl_easy_getinfo --------------------------------------------------------------------------- */

/* CURLINFO_LONG items: RESPONSE_CODE, NUM_CONNECTS, ... */
static inline CURLcode tnc_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

/* CURLINFO_STRING items (EFFECTIVE_URL, ...): the string belongs to the handle, do not free it. */
static inline CURLcode tnc_getinfo_ptr(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}

/* CURLINFO_OFF_T items: SIZE_DOWNLOAD_T, CONTENT_LENGTH_DOWNLOAD_T, ... */
static inline CURLcode tnc_getinfo_off_t(CURL *curl, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(curl, info, value);
}

/* ---- curl_share_setopt --------------------------------------------------------------------------- */

/* CURLSHOPT_SHARE / CURLSHOPT_UNSHARE: libcurl reads the data kind as an int. */
static inline CURLSHcode tnc_share_setopt_data(CURLSH *share, CURLSHoption option, curl_lock_data data) {
    return curl_share_setopt(share, option, (int)data);
}

static inline CURLSHcode tnc_share_setopt_lockfunc(CURLSH *share, curl_lock_function callback) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, callback);
}

static inline CURLSHcode tnc_share_setopt_unlockfunc(CURLSH *share, curl_unlock_function callback) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, callback);
}

/* CURLSHOPT_USERDATA: the pointer handed back to the lock and unlock callbacks. */
static inline CURLSHcode tnc_share_setopt_userdata(CURLSH *share, void *user) {
    return curl_share_setopt(share, CURLSHOPT_USERDATA, user);
}

/* ---- misc ---------------------------------------------------------------------------------------- */

/* The version of the libcurl actually loaded at run time (0xXXYYZZ), which may be newer than the
 * headers compiled against; 0 if libcurl cannot say. */
static inline unsigned int tnc_version_num(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version_num : 0;
}

/* CURL_GLOBAL_DEFAULT is a macro expression; as a typed constant Swift sees it without guessing. */
static inline long tnc_global_default_flags(void) {
    return CURL_GLOBAL_DEFAULT;
}

#endif
