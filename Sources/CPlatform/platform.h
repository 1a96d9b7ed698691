/* The C library as the core sees it: the headers it calls into, and the few helpers the Glibc overlay
 * would otherwise give (errno, the non-variadic open and fcntl) or that Swift cannot call (variadic).
 * One module for both builds: the Embedded build has no Glibc module to import, and the standard build
 * uses these helpers too, so one source compiles either way. */
#ifndef TELENORID_PLATFORM_H
#define TELENORID_PLATFORM_H
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <dirent.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/random.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <dlfcn.h>
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <sys/auxv.h>

static inline int telenorid_platform_errno(void) { return errno; }
static inline int telenorid_platform_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
/* SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK: enum cases in glibc's headers, plain integers in bionic's. */
static inline int telenorid_platform_nonblocking_stream_socket(void) { return SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK; }
/* socket(2) with SOCK_CLOEXEC added to the type: libcurl's own sockets are close-on-exec too (a transfer's
 * socket, EasyHandle's CURLOPT_OPENSOCKETFUNCTION, must not leak into a process the host execs). */
static inline int telenorid_platform_cloexec_socket(int family, int type, int protocol) {
    return socket(family, type | SOCK_CLOEXEC, protocol);
}
static inline int telenorid_platform_fcntl_int(int fd, int command, int argument) { return fcntl(fd, command, argument); }
/* getenv, except in a set-user-ID or set-group-ID program (AT_SECURE), whose environment is its less privileged
 * caller's: glibc's secure_getenv, which bionic lacks and glibc declares only under _GNU_SOURCE. */
static inline const char *telenorid_platform_secure_getenv(const char *name) {
    return getauxval(AT_SECURE) ? NULL : getenv(name);
}
/* strtod in the C locale whatever locale the host set (a JSON number's decimal point is always '.'): the
 * standard library's Double(String) calls a runtime hook the Embedded standard library does not have. */
static inline double telenorid_platform_strtod_c(const char *text, char **end) {
    locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (c_locale == (locale_t)0) {
        *end = (char *)text;
        return 0;
    }
    /* uselocale (POSIX.1-2008) rather than glibc's strtod_l, which its headers declare only under _GNU_SOURCE. */
    locale_t previous = uselocale(c_locale);
    double value = strtod(text, end);
    uselocale(previous);
    freelocale(c_locale);
    return value;
}
#endif
