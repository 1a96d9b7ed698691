/* The loopback redirect listener over a real socket. Part of test_api. */
#include "api_support.h"

/* The loopback redirect listener over a real socket: a request queued before the wait is served by it. */
static int connect_loopback(unsigned port, const char *request) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return -1;
    if (request && send(fd, request, strlen(request), 0) < 0) return -1;
    return fd;
}

void test_loopback(void) {
    telenorid_loopback_listener *listener = SENTINEL;
    char *s = SENTINEL;
    CHECK_NULL_ARG("out", telenorid_loopback_listener_new(0, NULL, NULL));
    CHECK_NULL_ARG("listener", telenorid_loopback_listener_redirect_uri(NULL, &s));
    CHECK_NULL_ARG("listener", telenorid_loopback_listener_wait(NULL, 10, &s));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_listener_new(0, "no-slash", &listener));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_listener_new(0, "/a?b", &listener));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, listener, telenorid_loopback_listener_new(0, "/\xc3\x28", &listener));
    if (!CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_new(0, "/done", &listener))) return;
    CHECK_NULL_ARG("out", telenorid_loopback_listener_wait(listener, 10, NULL));
    telenorid_pkce *pkce = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_pkce_new(0, &pkce));
    CHECK_WRONG_KIND(telenorid_loopback_listener_wait(AS(telenorid_loopback_listener, pkce), 10, &s));
    CHECK_WRONG_KIND(telenorid_loopback_listener_redirect_uri(AS(telenorid_loopback_listener, pkce), &s));
    telenorid_pkce_free(pkce);
    char *uri = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_redirect_uri(listener, &uri));
    unsigned port = 0;
    CHECK(uri && sscanf(uri, "http://127.0.0.1:%u/done", &port) == 1 && port > 0);
    telenorid_loopback_listener *same_port = SENTINEL;
    CHECK_FAILS_UNTOUCHED(TELENORID_E_NETWORK, same_port, telenorid_loopback_listener_new((uint16_t)port, NULL, &same_port));
    /* A wrong path first (answered 404), then the redirect; both queued before the wait. */
    /* The Host names the listener's own port, as a browser sends it (anything else is refused: DNS rebinding). */
    char head[128];
    snprintf(head, sizeof head, "GET /elsewhere?code=x HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\n", port);
    int wrong = connect_loopback(port, head);
    snprintf(head, sizeof head, "GET /done?code=c-1&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n\r\n", port);
    int right = connect_loopback(port, head);
    CHECK(wrong >= 0 && right >= 0);
    char *redirect = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_wait(listener, 10000, &redirect));
    char expected[128];
    snprintf(expected, sizeof expected, "http://127.0.0.1:%u/done?code=c-1&state=s-1", port);
    CHECK_STR(expected, redirect);
    char answer[64] = {0};
    CHECK(recv(wrong, answer, sizeof answer - 1, 0) > 0 && strncmp(answer, "HTTP/1.1 404", 12) == 0);
    memset(answer, 0, sizeof answer);
    CHECK(recv(right, answer, sizeof answer - 1, 0) > 0 && strncmp(answer, "HTTP/1.1 200", 12) == 0);
    close(wrong);
    close(right);
    /* Once: a second wait is refused; a wait with nothing coming times out. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, s, telenorid_loopback_listener_wait(listener, 10, &s));
    telenorid_loopback_listener *idle = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_loopback_listener_new(0, NULL, &idle));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, s, telenorid_loopback_listener_wait(idle, 0, &s));
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TIMEOUT, s, telenorid_loopback_listener_wait(idle, 50, &s));
    /* A timeout hands nothing out: the listener can wait again, and times out again. */
    CHECK_FAILS_UNTOUCHED(TELENORID_E_TIMEOUT, s, telenorid_loopback_listener_wait(idle, 50, &s));
    telenorid_loopback_listener_free(idle);
    telenorid_string_free(redirect);
    telenorid_string_free(uri);
    telenorid_loopback_listener_free(listener);
    telenorid_loopback_listener_free(NULL);
}
