/* Tests of libtelenorid's exports through the public header only: every rule include/telenorid.h states
 * (NULL in every pointer position, *_free(NULL), outputs untouched on error, UTF-8 and length limits,
 * unknown enum values, handles of the wrong kind, the thread-local last error, ownership and free order)
 * and every function, the network ones against a stand-in provider on 127.0.0.1 (stub_server.h).
 * The tests live in test_api_<room>.c, a file per room of the core (api_support.h has what they share); this
 * file runs them in order. Ends with "N passed, M failed"; exits non-zero when a check failed. Leak-free under
 * valgrind. */
#include "api_support.h"

static void test_network(void) {
    if (!CHECK(stub_start(&server) == 0)) return;
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%u", (unsigned)server.port);
    test_client_sign_in();
    test_auth_state_restored();
    test_single_flight_refresh();
    test_client_authentication();
    test_iss_required();
    test_transport_errors();
    test_auth_state_file();
    test_refresh_verdicts();
    test_sign_out_during_a_refresh();
    test_exchange_never_sent();
    test_device_grant();
    test_logging();
    stub_stop(&server);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    test_no_error_yet();
    test_versions();
    test_status_strings();
    test_transient_rule();
    test_error_copies();
    test_free_null();
    test_null_arguments();
    test_wrong_kind();
    test_invalid_utf8();
    test_length_limit();
    test_unknown_enums();
    test_pkce();
    test_config_builder();
    test_config_json();
    test_auth_request();
    test_pending_serialization();
    test_callbacks();
    test_app_callbacks();
    test_free_order();
    test_old_names();
    test_last_error_is_per_thread();
    test_callback_race();
    test_shared_request();
    test_network();
    test_loopback();
    return finish_checks();
}
