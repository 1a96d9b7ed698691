/* A stand-in OpenID provider for the C tests: a one-thread HTTP/1.1 server on 127.0.0.1 that answers each
 * request from a table of canned responses (status, content type, body, extra headers, delay) and
 * records what it was sent. Each connection gets one response and is closed ("Connection: close").
 * A connection that opens with a TLS handshake gets a plain-text 400, which a TLS client reads as a
 * failed handshake. Enough for the client and auth state functions; not a general server. */
#ifndef TELENORID_TEST_STUB_SERVER_H
#define TELENORID_TEST_STUB_SERVER_H
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define STUB_MAX_ROUTES 32
#define STUB_MAX_REQUEST (64 * 1024)

struct stub_route {
    char method[8];
    char path[128];
    int status;
    char content_type[64];
    char headers[256];   /* extra header lines, each ending in \r\n */
    char *body;          /* malloc'd */
    int delay_ms;        /* wait before answering */
    int hits;
    char *last_request;  /* malloc'd: request line, headers and body of the last request */
};

struct stub_server {
    int listener;
    unsigned short port;
    pthread_t thread;
    pthread_mutex_t lock;
    struct stub_route routes[STUB_MAX_ROUTES];
    int route_count;
    int requests;        /* every request, routed or not */
};

static inline char *stub_strdup(const char *text) {
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy) memcpy(copy, text, size);
    return copy;
}

static inline void stub_sleep_ms(int ms) {
    struct timespec delay;
    delay.tv_sec = ms / 1000;
    delay.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&delay, &delay) != 0 && errno == EINTR) {}
}

static inline struct stub_route *stub_find(struct stub_server *server, const char *method, const char *path) {
    for (int i = 0; i < server->route_count; i++) {
        if (strcmp(server->routes[i].method, method) == 0 && strcmp(server->routes[i].path, path) == 0) {
            return &server->routes[i];
        }
    }
    return NULL;
}

/* Sets (or replaces) the answer to `method path`. `headers` may be NULL; `body` is copied. */
static inline void stub_set(struct stub_server *server, const char *method, const char *path, int status,
                            const char *content_type, const char *body, const char *headers, int delay_ms) {
    pthread_mutex_lock(&server->lock);
    struct stub_route *route = stub_find(server, method, path);
    if (!route && server->route_count < STUB_MAX_ROUTES) {
        route = &server->routes[server->route_count++];
        memset(route, 0, sizeof *route);
        snprintf(route->method, sizeof route->method, "%s", method);
        snprintf(route->path, sizeof route->path, "%s", path);
    }
    if (route) {
        route->status = status;
        snprintf(route->content_type, sizeof route->content_type, "%s", content_type);
        snprintf(route->headers, sizeof route->headers, "%s", headers ? headers : "");
        free(route->body);
        route->body = stub_strdup(body);
        route->delay_ms = delay_ms;
    }
    pthread_mutex_unlock(&server->lock);
}

static inline int stub_hits(struct stub_server *server, const char *method, const char *path) {
    pthread_mutex_lock(&server->lock);
    struct stub_route *route = stub_find(server, method, path);
    int hits = route ? route->hits : 0;
    pthread_mutex_unlock(&server->lock);
    return hits;
}

static inline int stub_requests(struct stub_server *server) {
    pthread_mutex_lock(&server->lock);
    int requests = server->requests;
    pthread_mutex_unlock(&server->lock);
    return requests;
}

/* A copy of the last request to `method path` (free() it), or NULL when there was none. */
static inline char *stub_last_request(struct stub_server *server, const char *method, const char *path) {
    pthread_mutex_lock(&server->lock);
    struct stub_route *route = stub_find(server, method, path);
    char *copy = route && route->last_request ? stub_strdup(route->last_request) : NULL;
    pthread_mutex_unlock(&server->lock);
    return copy;
}

static inline void stub_send_all(int fd, const char *data, size_t length) {
    while (length > 0) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return;
        data += sent;
        length -= (size_t)sent;
    }
}

static inline void stub_answer(int fd, int status, const char *content_type, const char *headers, const char *body) {
    char head[512];
    int length = snprintf(head, sizeof head,
                          "HTTP/1.1 %d Stub\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
                          status, content_type, strlen(body), headers);
    if (length > 0 && (size_t)length < sizeof head) stub_send_all(fd, head, (size_t)length);
    stub_send_all(fd, body, strlen(body));
}

/* Reads one request: the head up to the blank line, then Content-Length bytes of body. */
static inline size_t stub_read_request(int fd, char *buffer, size_t capacity) {
    size_t used = 0;
    size_t body_start = 0, body_length = 0;
    while (used + 1 < capacity) {
        ssize_t got = recv(fd, buffer + used, capacity - 1 - used, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        used += (size_t)got;
        buffer[used] = 0;
        if ((unsigned char)buffer[0] == 0x16) return used; /* a TLS ClientHello: no HTTP to wait for */
        if (!body_start) {
            char *end = strstr(buffer, "\r\n\r\n");
            if (!end) continue;
            body_start = (size_t)(end - buffer) + 4;
            /* Header lines start after each CRLF before the blank line. */
            for (char *line = strstr(buffer, "\r\n"); line && line < end; line = strstr(line, "\r\n")) {
                line += 2;
                if (strncasecmp(line, "Content-Length:", 15) == 0) body_length = strtoul(line + 15, NULL, 10);
            }
        }
        if (used >= body_start + body_length) break;
    }
    buffer[used] = 0;
    return used;
}

static inline void *stub_serve(void *arg) {
    struct stub_server *server = arg;
    char *buffer = malloc(STUB_MAX_REQUEST + 1);
    for (;;) {
        int fd = accept(server->listener, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            break; /* the listener was shut down */
        }
        size_t length = stub_read_request(fd, buffer, STUB_MAX_REQUEST + 1);
        if (length > 0 && (unsigned char)buffer[0] == 0x16) {
            stub_answer(fd, 400, "text/plain", "", "this is plain HTTP");
            close(fd);
            continue;
        }
        char method[8] = "", path[256] = "";
        if (sscanf(buffer, "%7s %255s", method, path) != 2) {
            close(fd);
            continue;
        }
        char *query = strchr(path, '?');
        if (query) *query = 0;
        pthread_mutex_lock(&server->lock);
        server->requests++;
        struct stub_route *route = stub_find(server, method, path);
        int status = 404, delay = 0;
        char content_type[64] = "application/json", headers[256] = "";
        char *body = stub_strdup("{\"error\":\"not_found\"}");
        if (route) {
            route->hits++;
            free(route->last_request);
            route->last_request = stub_strdup(buffer);
            status = route->status;
            delay = route->delay_ms;
            memcpy(content_type, route->content_type, sizeof content_type);
            memcpy(headers, route->headers, sizeof headers);
            free(body);
            body = stub_strdup(route->body ? route->body : "");
        }
        pthread_mutex_unlock(&server->lock);
        if (delay) stub_sleep_ms(delay);
        stub_answer(fd, status, content_type, headers, body);
        free(body);
        shutdown(fd, SHUT_WR);
        close(fd);
    }
    free(buffer);
    return NULL;
}

/* Starts the server on an ephemeral loopback port. Returns 0 on success. */
static inline int stub_start(struct stub_server *server) {
    memset(server, 0, sizeof *server);
    pthread_mutex_init(&server->lock, NULL);
    server->listener = socket(AF_INET, SOCK_STREAM, 0);
    if (server->listener < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (bind(server->listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(server->listener, 16) != 0 ||
        getsockname(server->listener, (struct sockaddr *)&address, &size) != 0) {
        close(server->listener);
        return -1;
    }
    server->port = ntohs(address.sin_port);
    if (pthread_create(&server->thread, NULL, stub_serve, server) != 0) {
        close(server->listener);
        return -1;
    }
    return 0;
}

static inline void stub_stop(struct stub_server *server) {
    shutdown(server->listener, SHUT_RDWR); /* wakes accept() */
    pthread_join(server->thread, NULL);
    close(server->listener);
    for (int i = 0; i < server->route_count; i++) {
        free(server->routes[i].body);
        free(server->routes[i].last_request);
    }
    pthread_mutex_destroy(&server->lock);
}

/* A loopback port with a socket bound to it but not listening: connecting there is refused at once.
 * Keep the returned descriptor open while the port must stay refused; close it afterwards. */
static inline int stub_refused_port(unsigned short *port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
        getsockname(fd, (struct sockaddr *)&address, &size) != 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return fd;
}
#endif
