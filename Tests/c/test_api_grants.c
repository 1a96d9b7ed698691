/* The device authorization grant (RFC 8628) against the stand-in provider: the contract of its functions
 * (NULL, wrong kinds, outputs untouched, unknown fields), a sign-in, a denial, a hostile answer and a wait
 * cancelled from another thread. Part of test_api. */
#include "api_support.h"

#include <pthread.h>

#define DEVICE_ANSWER \
    "{\"device_code\":\"dc-1\",\"user_code\":\"WDJB-MJHT\",\"verification_uri\":\"https://id.example/activate\"," \
    "\"expires_in\":60,\"interval\":%d}"

static void serve_device(int interval) {
    char body[256];
    snprintf(body, sizeof body, DEVICE_ANSWER, interval);
    stub_set(&server, "POST", "/device", 200, "application/json", body, NULL, 0);
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void *cancel_later(void *client) {
    stub_sleep_ms(100);
    telenorid_client_cancel(client);
    return NULL;
}

static char *device_string(const telenorid_device_authorization *device, telenorid_device_field field) {
    char *value = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_get(device, field, &value));
    return take(value);
}

void test_device_grant(void) {
    char members[160];
    snprintf(members, sizeof members, ",\"device_authorization_endpoint\":\"%s/device\"", base_url);
    serve_discovery_with("/dev", NULL, members);
    telenorid_config *config = provider_config("/dev", NULL);
    telenorid_client *client = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_client_new(config, &client))) return;
    telenorid_device_authorization *device = SENTINEL;
    telenorid_auth_state *state = SENTINEL;
    char *s = SENTINEL;
    int64_t when = 0;
    int32_t interval = 0;

    CHECK_NULL_ARG("client", telenorid_client_start_device_authorization(NULL, NULL, &device));
    CHECK_NULL_ARG("out", telenorid_client_start_device_authorization(client, NULL, NULL));
    CHECK_WRONG_KIND(telenorid_client_start_device_authorization(AS(telenorid_client, config), NULL, &device));
    CHECK_WRONG_KIND(telenorid_client_start_device_authorization(client, AS(telenorid_auth_request, config), &device));
    CHECK_NULL_ARG("authorization", telenorid_device_authorization_get(NULL, TELENORID_DEVICE_USER_CODE, &s));
    CHECK_NULL_ARG("authorization", telenorid_device_authorization_expires_at(NULL, &when));
    CHECK_NULL_ARG("authorization", telenorid_device_authorization_interval(NULL, &interval));
    CHECK_NULL_ARG("authorization", telenorid_device_authorization_wait(NULL, &state));
    CHECK_WRONG_KIND(telenorid_device_authorization_wait(AS(telenorid_device_authorization, client), &state));
    telenorid_device_authorization_free(NULL);

    /* A hostile answer (interval -1) is refused; a refusal keeps the provider's error. */
    stub_set(&server, "POST", "/device", 200, "application/json",
             "{\"device_code\":\"d\",\"user_code\":\"U\",\"verification_uri\":\"https://id.example/a\","
             "\"expires_in\":60,\"interval\":-1}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, device, telenorid_client_start_device_authorization(client, NULL, &device));
    stub_set(&server, "POST", "/device", 200, "application/json",
             "{\"device_code\":\"d\",\"user_code\":\"U\",\"verification_uri\":\"http://id.example/a\",\"expires_in\":60}",
             NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_RESPONSE, device, telenorid_client_start_device_authorization(client, NULL, &device));
    stub_set(&server, "POST", "/device", 400, "application/json", "{\"error\":\"invalid_scope\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, device, telenorid_client_start_device_authorization(client, NULL, &device));

    /* Sign-in: the interval is 1 s, the token endpoint answers at the first poll. */
    serve_device(1);
    device = NULL;
    if (!CHECK_STATUS(TELENORID_OK, telenorid_client_start_device_authorization(client, NULL, &device))) goto done;
    char *code = device_string(device, TELENORID_DEVICE_USER_CODE);
    char *uri = device_string(device, TELENORID_DEVICE_VERIFICATION_URI);
    char *complete = device_string(device, TELENORID_DEVICE_VERIFICATION_URI_COMPLETE);
    CHECK_STR("WDJB-MJHT", code);
    CHECK_STR("https://id.example/activate", uri);
    CHECK(complete == NULL); /* absent: OK and NULL */
    free(code);
    free(uri);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_INVALID_ARGUMENT, s, telenorid_device_authorization_get(device, 4, &s));
    CHECK_NULL_ARG("out", telenorid_device_authorization_get(device, TELENORID_DEVICE_USER_CODE, NULL));
    CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_interval(device, &interval));
    CHECK(interval == 1);
    CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_expires_at(device, &when));
    /* + 61: time() reads the kernel's coarse clock, which across a second boundary can be a tick behind the
     * CLOCK_REALTIME the library reads. */
    CHECK(when >= (int64_t)time(NULL) + 55 && when <= (int64_t)time(NULL) + 61);
    char *form = stub_last_request(&server, "POST", "/device");
    CHECK(form && strstr(form, "client_id=c-1") && strstr(form, "scope=profile"));
    free(form);
    stub_set(&server, "POST", "/token", 200, "application/json",
             "{\"access_token\":\"device-at\",\"token_type\":\"Bearer\",\"expires_in\":300}", NULL, 0);
    state = NULL;
    if (CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_wait(device, &state))) {
        CHECK_TOKEN(state, TELENORID_TOKEN_ACCESS_TOKEN, "device-at");
        telenorid_auth_state_free(state);
    }
    form = stub_last_request(&server, "POST", "/token");
    CHECK(form && strstr(form, "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") &&
          strstr(form, "device_code=dc-1"));
    free(form);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_CONSUMED, state, telenorid_device_authorization_wait(device, &state));
    telenorid_device_authorization_free(device);

    /* The user refuses: the provider's error; the handle may wait again. */
    serve_device(1);
    device = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_start_device_authorization(client, NULL, &device));
    stub_set(&server, "POST", "/token", 400, "application/json", "{\"error\":\"access_denied\"}", NULL, 0);
    CHECK_FAILS_UNTOUCHED(TELENORID_E_AUTHORIZATION_ERROR, state, telenorid_device_authorization_wait(device, &state));
    telenorid_device_authorization_free(device);

    /* Cancelled from another thread within 100 ms, in a 30 s sleep. */
    serve_device(30);
    device = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_client_start_device_authorization(client, NULL, &device));
    pthread_t canceller;
    if (CHECK(pthread_create(&canceller, NULL, cancel_later, client) == 0)) {
        double started = seconds_now();
        CHECK_FAILS_UNTOUCHED(TELENORID_E_CANCELLED, state, telenorid_device_authorization_wait(device, &state));
        CHECK(seconds_now() - started < 0.3);
        pthread_join(canceller, NULL);
    }
    /* The client outlives its handle's free order: the device authorization keeps it alive. */
    telenorid_client_free(client);
    client = NULL;
    CHECK_STATUS(TELENORID_OK, telenorid_device_authorization_interval(device, &interval));
    CHECK(interval == 30);
    telenorid_device_authorization_free(device);
done:
    telenorid_client_free(client);
    telenorid_config_free(config);
}
