/* The full sign-in (login_flow.h) with libtelenorid linked the usual way:
 *   cc login.c $(pkg-config --cflags --libs telenorid) -o login */
#include "login_flow.h"

int main(int argc, char **argv)
{
    const login_api api = {
        telenorid_status_str, telenorid_error_last, telenorid_error_message, telenorid_error_oauth_error,
        telenorid_error_free, telenorid_string_free, telenorid_config_builder_new, telenorid_config_builder_set,
        telenorid_config_builder_build, telenorid_config_builder_free, telenorid_config_free, telenorid_client_new,
        telenorid_client_discover, telenorid_client_config, telenorid_client_free, telenorid_auth_request_new,
        telenorid_auth_request_build, telenorid_auth_request_free, telenorid_pending_auth_url,
        telenorid_pending_auth_handle_callback, telenorid_pending_auth_free, telenorid_authorization_callback_free,
        telenorid_client_exchange_code, telenorid_auth_state_get, telenorid_auth_state_userinfo,
        telenorid_auth_state_refresh, telenorid_auth_state_revoke, telenorid_auth_state_is_signed_in,
        telenorid_auth_state_free,
    };
    return login_run(&api, argc, argv);
}
