"""Tests/c/test_null_contract.c: the header's NULL rule checked for every function it declares.

For every function that returns a telenorid_status, each pointer parameter in turn is NULL while every other
argument is valid (a live handle of its type, a string, an output set to a sentinel): the call must fail with
TELENORID_E_INVALID_ARGUMENT, record a last error saying what is NULL, and leave every output as it was
(the header's conventions: "Every pointer parameter may be NULL: the call then fails with
TELENORID_E_INVALID_ARGUMENT", "a failed call writes no outputs"). Every `_free(NULL)` and every function that
returns no status is called with NULL too, and must return. The parameters where the header gives NULL a
meaning are in EXCEPTIONS, each with the header's reason. Every handle comes from FIXTURES (those only a
provider gives from Tests/c/null_contract_provider.py, started by the test) or IN_CALLBACK; a case whose handle
has neither is printed as not run, naming the handle it lacks."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from header import CType, Declarations, Function, Parameter, resolve
from output import GENERATED

OUTPUT = "Tests/c/test_null_contract.c"

# The one list of pointer parameters where NULL is not an error: (function, parameter) -> the header's words.
# Every `void *user_data` is passed through to the host's callback and never read: NULL is as good as any.
EXCEPTIONS: Dict[Tuple[str, str], str] = {
    ("telenorid_config_builder_set", "value"): "`value` NULL clears it",
    ("telenorid_config_from_json", "environment"): "NULL picks \"default_environment\"",
    ("telenorid_auth_request_set", "value"): "`value` NULL clears it",
    ("telenorid_auth_request_add_claim", "purpose"): "`purpose`, `value_json` and `values_json` may each be NULL",
    ("telenorid_auth_request_add_claim", "value_json"): "`purpose`, `value_json` and `values_json` may each be NULL",
    ("telenorid_auth_request_add_claim", "values_json"): "`purpose`, `value_json` and `values_json` may each be NULL",
    ("telenorid_auth_request_set_authorization_details", "json"): "NULL clears it",
    ("telenorid_auth_request_set_token_authorization_details", "json"): "NULL clears it",
    ("telenorid_pending_auth_handle_app_callback", "allowed_resume_host"):
        "NULL: the host of the request's authorization URL",
    ("telenorid_client_verify_id_token", "nonce"): "the nonce is checked only when `nonce` is not NULL",
    ("telenorid_client_set_dpop_signer", "callback"): "`callback` NULL removes the signer",
    ("telenorid_client_set_client_signer", "callback"): "`callback` NULL removes the signer",
    ("telenorid_auth_state_request_headers", "resource_nonce"): "the resource's DPoP-Nonce, else NULL",
    ("telenorid_auth_state_resource_answered", "www_authenticate"): "NULL when the answer had none",
    ("telenorid_auth_state_resource_answered", "dpop_nonce"): "NULL when the answer had none",
    ("telenorid_auth_state_access_token_rejected", "access_token"): "`access_token` NULL means the current one",
    ("telenorid_auth_state_end_session_url", "post_logout_redirect_uri"): "either may be NULL",
    ("telenorid_auth_state_end_session_url", "logout_state"): "either may be NULL",
    ("telenorid_auth_state_set_change_callback", "callback"): "NULL `callback` removes it",
    ("telenorid_line_authenticator_set_socket_hook", "hook"): "NULL `hook` removes it",
    ("telenorid_line_auth_set_socket_hook", "hook"): "NULL `hook` removes it (the 0.4 name)",
    ("telenorid_line_authenticator_set_resolver", "resolver"): "NULL `resolver` removes it",
    ("telenorid_loopback_listener_new", "path"): "\"/callback\" when NULL",
    ("telenorid_loopback_new", "path"): "\"/callback\" when NULL (the 0.4 name)",
    ("telenorid_loopback_listener_expect_state", "state"): "NULL clears it",
    ("telenorid_loopback_expect_state", "state"): "NULL clears it (the 0.4 name)",
    ("telenorid_idp_request_new", "login_host"): "`login_host` and `user_hint` may be NULL (not sent)",
    ("telenorid_idp_request_new", "user_hint"): "`login_host` and `user_hint` may be NULL (not sent)",
    ("telenorid_pending_auth_handle_idp_response_url", "allowed_login_hosts"): "count 0 allows NULL",
    ("telenorid_resource_server_set", "value"): "`value` NULL restores its default",
    ("telenorid_backchannel_logout_set", "value"): "`value` NULL restores its default",
    ("telenorid_resource_server_introspect", "token_type_hint"): "when not NULL, `token_type_hint`",
    ("telenorid_client_credentials_new", "scope"): "NULL: no scope parameter, the provider's default for the client",
    ("telenorid_client_credentials_rejected", "access_token"): "`access_token` NULL: the one held",
    ("telenorid_client_credentials_new_jwt_bearer", "scope"): "NULL: no scope parameter, as telenorid_client_credentials_new()",
    ("telenorid_client_credentials_new_jwt_bearer", "subject"): "exactly one of `subject` and `assertion`",
    ("telenorid_client_credentials_new_jwt_bearer", "assertion"): "exactly one of `subject` and `assertion`",
    ("telenorid_client_credentials_request_headers", "resource_nonce"): "the resource's DPoP-Nonce, else NULL",
    ("telenorid_client_credentials_resource_answered", "www_authenticate"): "NULL when the answer had none",
    ("telenorid_client_credentials_resource_answered", "dpop_nonce"): "NULL when the answer had none",
    ("telenorid_token_exchange_set_actor", "actor_token"): "NULL for both removes the actor",
    ("telenorid_token_exchange_set_actor", "actor_token_type"): "NULL for both removes the actor",
    ("telenorid_token_exchange_set_scope", "scope"): "NULL sends none",
    ("telenorid_token_exchange_set_requested_token_type", "token_type"): "NULL sends none",
    ("telenorid_client_native_sso", "scope"): "NULL: the configuration's",
    ("telenorid_resource_server_verify_dpop", "jkt"): "when `jkt` is NULL, from `info`",
    ("telenorid_resource_server_verify_dpop", "info"): "or, when `jkt` is NULL, from `info`",
    ("telenorid_pending_auth_handle_idp_response_params", "allowed_login_hosts"): "count 0 allows NULL",
    ("telenorid_idp_request_parse_url", "caller_redirect_uris"): "NULL allowed for 0",
    ("telenorid_idp_request_parse_params", "caller_redirect_uris"): "NULL allowed for 0",
    ("telenorid_client_start_device_authorization", "request"): "`request` NULL: the configuration's scope alone",
    ("telenorid_set_log_callback", "callback"): "NULL `callback` removes it",
}

# How the test makes one live handle of each type, in this order. fx.client's issuer is a closed loopback port,
# so a call that wrongly went there would fail at once; the handles only a provider gives come from
# fx.provider_client, whose issuer is Tests/c/null_contract_provider.py (make_provider), and its tokens.
FIXTURES: Dict[str, str] = {
    "telenorid_config_builder": "telenorid_config_builder_new(&fx.config_builder)",
    "telenorid_config": "make_config(&fx.config)",
    "telenorid_pkce": "telenorid_pkce_new(0, &fx.pkce)",
    "telenorid_auth_request": "telenorid_auth_request_new(fx.config, &fx.auth_request)",
    "telenorid_pending_auth": "telenorid_auth_request_build(fx.auth_request, &fx.pending_auth)",
    "telenorid_callback": "make_callback(&fx.callback)",
    "telenorid_app_callback": "make_app_callback(&fx.app_callback)",
    "telenorid_client": "telenorid_client_new(fx.config, &fx.client)",
    "telenorid_auth_state": "telenorid_auth_state_restore(fx.client, STATE_JSON, &fx.auth_state)",
    "telenorid_store": "telenorid_store_new_directory(fx.directory, &fx.store)",
    "telenorid_accounts": "telenorid_accounts_open(fx.client, fx.store, \"contract\", &fx.accounts)",
    "telenorid_line_auth": "telenorid_line_authenticator_new(fx.config, &fx.line_auth)",
    "telenorid_loopback": "telenorid_loopback_listener_new(0, NULL, &fx.loopback)",
    "telenorid_params": "make_params(&fx.params)",
    "telenorid_idp_request": "make_idp_request(&fx.idp_request)",
    "telenorid_idp_response": "make_idp_response(&fx.idp_response)",
    "telenorid_error": "make_error(&fx.error)",
    "telenorid_device_authorization":
        "telenorid_client_start_device_authorization(fx.provider_client, NULL, &fx.device_authorization)",
    "telenorid_backchannel_auth": "make_backchannel_auth(&fx.backchannel_auth)",
    "telenorid_resource_server": "telenorid_resource_server_new(fx.provider_client, AUDIENCE, &fx.resource_server)",
    "telenorid_token_info":
        "telenorid_resource_server_verify_access_token(fx.resource_server, fx.access_token, &fx.token_info)",
    "telenorid_client_credentials": "telenorid_client_credentials_new(fx.provider_client, NULL, &fx.client_credentials)",
    "telenorid_token_exchange":
        "telenorid_token_exchange_new(\"t\", TELENORID_TOKEN_TYPE_ACCESS_TOKEN, &fx.token_exchange)",
    "telenorid_issued_token":
        "telenorid_client_exchange_token(fx.provider_client, fx.token_exchange, &fx.issued_token)",
    "telenorid_dpop_replay_cache": "telenorid_dpop_replay_cache_new(60, 16, &fx.dpop_replay_cache)",
    "telenorid_backchannel_logout": "telenorid_backchannel_logout_new(fx.provider_client, &fx.backchannel_logout)",
    "telenorid_logout_token":
        "telenorid_backchannel_logout_validate(fx.backchannel_logout, fx.logout_token_jwt, &fx.logout_token)",
}
# The free functions whose names are not the type's with _free.
FREES: Dict[str, str] = {"telenorid_line_auth": "telenorid_line_authenticator_free",
                         "telenorid_loopback": "telenorid_loopback_listener_free",
                         "telenorid_callback": "telenorid_authorization_callback_free"}

# Handles that live only inside a host callback: the type -> the helper that runs a case function there
# (setting fx.<name> for it). A store record is valid only during the host's load (telenorid_store_record_set).
IN_CALLBACK: Dict[str, str] = {"telenorid_store_record": "in_store_load"}

# Arguments that must hold a particular value for the rest of the call to be valid, by parameter name.
VALUES: Dict[str, str] = {
    "url": '"' + "http://127.0.0.1:9/x" + '"', "redirect_url": "REDIRECT \"?code=c&state=s\"",
    "callback_url": "APP_CALLBACK \"?state=s\"", "json": '"{}"', "method": '"GET"', "path": "fx.file",
    "directory": "fx.directory", "key": '"contract"', "name": '"contract"', "account_id": '"AAAAAAAAAAAA"',
    "e164": '"+4790000000"', "address": '"203.0.113.7"', "token": '"t"', "hint": '"tel:+4790000000"',
    "algorithm": '"ES256"', "public_jwk": "PUBLIC_JWK", "idp_app_uri": '"idpapp://authorize"',
    "sp_app_uri": '"spapp://idp-initiated"', "user_hint": '"alice"', "login_host": '"login.example.com"',
    "verifier": "VERIFIER", "authorization_endpoint": '"https://login.example.com/authorize"',
    "provider_redirect_url": "REDIRECT \"?code=c&state=s\"", "app_callback_uri": "APP_CALLBACK",
    "uri": '"https://api.example.com/"', "www_authenticate": '"Bearer"', "authorization_sent": '"Bearer at"',
    "authorization_header": '"Bearer t"', "body": '"{}"', "id_token": '"a.b.c"', "state": '"s"',
    "value_json": '"\\"v\\""', "values_json": '"[]"',
}
INTEGERS: Dict[str, str] = {
    "port": "0", "timeout_ms": "1", "http_status": "401", "min_level": "10", "essential": "-1", "length": "0",
    "index": "0", "count": "1", "verifier_size": "129", "challenge_size": "44", "len": "1", "seconds": "60",
}
BUFFERS = {"verifier": 129, "challenge": 44}
# Where one function needs another value than the name gives: (function, parameter) -> the value.
SPECIAL: Dict[Tuple[str, str], str] = {("telenorid_login_hint_ip_port", "port"): "5555"}

# Functions whose telenorid_status result is an answer, not the outcome of the call: no last error is recorded.
ANSWERS: Dict[str, str] = {"telenorid_error_status": "the status the error holds; TELENORID_E_INVALID_ARGUMENT "
                                                     "for NULL"}


def families_by_type(found: Declarations) -> Dict[str, str]:
    """An integer typedef -> its family's first constant (a valid value)."""
    from header import FAMILIES
    first = {}
    for family, _, typedef in FAMILIES:
        if typedef is not None and found.families[family]:
            first[typedef] = found.families[family][0].name
    return first


def is_output(parameter: Parameter, found: Declarations) -> bool:
    ctype = parameter.ctype
    if ctype.const_base:
        return False
    base = resolve(found, ctype.base)
    if base in found.structs and ctype.depth == 2:
        return True
    if base == "char" and ctype.depth == 2:
        return True
    if base == "char" and ctype.depth == 1:
        return True  # a buffer the caller lends (telenorid_pkce_generate)
    return ctype.depth == 1 and (base in ("int32_t", "int64_t", "size_t") or base in dict(found.integers))


def c_name(ctype: CType) -> str:
    return f"{'const ' if ctype.const_base else ''}{ctype.base} {'*' * ctype.depth}".rstrip()


class Case:
    def __init__(self, function: Function, null: Parameter) -> None:
        self.function = function
        self.null = null


def argument(found: Declarations, function: Function, parameter: Parameter, firsts: Dict[str, str],
             callbacks: Dict[str, str]) -> Tuple[Optional[str], Optional[str]]:
    """(the C expression of a valid argument, or None and why there is none)."""
    ctype = parameter.ctype
    base = resolve(found, ctype.base)
    if parameter.name == "user_data":
        return "NULL", None
    if (function.name, parameter.name) in SPECIAL:
        return SPECIAL[(function.name, parameter.name)], None
    if base in found.structs and ctype.depth == 1:
        if base == "telenorid_store_functions":
            return "&store_functions", None
        fixture = fixture_name(found, base)
        if fixture is None:
            return None, f"no line of scripts/gen/emit_c_contract.py's FIXTURES makes a live {ctype.base}"
        return f"fx.{fixture}", None
    if base in callbacks and ctype.depth == 0:
        return callbacks[base], None
    if base == "char" and ctype.depth == 1 and ctype.const_base:
        return VALUES.get(parameter.name, '"x"'), None
    if base == "char" and ctype.depth == 2 and ctype.const_base:
        return "one_string", None
    if base == "uint8_t" and ctype.depth == 1 and ctype.const_base:
        return "(const uint8_t *)\"x\"", None
    if ctype.depth == 0:
        if ctype.base in firsts:
            return firsts[ctype.base], None
        return INTEGERS.get(parameter.name, "1"), None
    raise SystemExit(f"scripts/gen: emit_c_contract.py: no value for {parameter.name} of {function.name}")


def fixture_name(found: Declarations, base: str) -> Optional[str]:
    for struct in [*FIXTURES, *IN_CALLBACK]:
        if resolve(found, struct) == base:
            return struct[len("telenorid_"):]
    return None


def in_callback(found: Declarations, function: Function) -> Optional[str]:
    """The IN_CALLBACK helper a function's cases must run in, when one of its handles lives only there."""
    for parameter in function.parameters:
        for struct, helper in IN_CALLBACK.items():
            if resolve(found, struct) == resolve(found, parameter.ctype.base):
                return helper
    return None


def callback_stubs(found: Declarations) -> Dict[str, Tuple[str, List[str]]]:
    """One function per callback type that the test passes where a callback must be given (never called: the
    call fails on its NULL first): the type -> (the stub's name, its definition)."""
    stubs: Dict[str, Tuple[str, List[str]]] = {}
    for name, restype, parameters in found.callbacks:
        stub = f"stub_{name[len('telenorid_'):]}"
        params = ", ".join(f"{c_name(p)} a{i}" for i, p in enumerate(parameters)) or "void"
        lines = [f"static {c_name(restype)} {stub}({params}) {{"]
        lines += [f"    (void)a{i};" for i in range(len(parameters))]
        if restype.base != "void":
            lines.append("    return 1;")
        lines += ["}", ""]
        stubs[name] = (stub, lines)
    return stubs


HEAD = r'''/* {generated}
 *
 * The header's NULL rule for every function of include/telenorid.h: each pointer parameter NULL in turn, every
 * other argument valid, gives TELENORID_E_INVALID_ARGUMENT, a last error saying what is NULL, and no output
 * written; every function that returns no status returns when given NULL. The parameters where the header
 * gives NULL a meaning are scripts/gen/emit_c_contract.py's EXCEPTIONS. The handles only a provider gives
 * (a device authorization, a backchannel authentication, token infos, logout tokens) come from
 * Tests/c/null_contract_provider.py, started here; a store record is live only inside the host's load, so its
 * cases run there. Built and run by Tests/c/run.sh (plain, valgrind, ASan/UBSan). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <telenorid.h>
#include "check.h"
#include "child_process.h"
#include "status_checks.h"

#define REDIRECT "com.example.sp:/oauth2redirect"
#define APP_CALLBACK "merchantapp://app-callback"
#define VERIFIER "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
#define PUBLIC_JWK "{{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU\"," \
    "\"y\":\"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0\"}}"
/* The client and resource server Tests/c/null_contract_provider.py issues its tokens for. */
#define PROVIDER_CLIENT_ID "null-contract"
#define AUDIENCE "https://api.example.com/"
#define STATE_JSON "{{\"version\":1,\"access_token\":\"at\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt\"}}"

static const char *const one_string[] = {{"x"}};

/* The case running, named by the signal handler when the library traps or crashes on it. */
static const char *current = "making the handles";

static void on_signal(int signal_number) {{
    static const char prefix[] = "test_null_contract: the library crashed on ";
    ssize_t ignored = write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = write(STDERR_FILENO, current, strlen(current));
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}}

/* One live handle of every kind, and the provider the ones only it gives come from. */
static struct {{
    char directory[64];
    char file[96];
    pid_t provider_pid;
    char issuer[64];
    char access_token[2048];
    char logout_token_jwt[2048];
    telenorid_config *provider_config;
    telenorid_client *provider_client;
{fields}
}} fx;

'''

HELPERS = r'''/* Set while a case runs inside a host callback (IN_CALLBACK), where every export that returns a status
 * refuses to run (the header's store functions). */
static int inside_callback;

/* A failure the case's own must replace, recorded just before: MALFORMED, or inside a host callback the
 * refusal to run there (INVALID_ARGUMENT saying where it was called from, not what is NULL). */
static void prime_last_error(void) {
    telenorid_config *config = NULL;
    telenorid_status expected = inside_callback ? TELENORID_E_INVALID_ARGUMENT : TELENORID_E_MALFORMED;
    if (telenorid_config_from_json("{", NULL, &config) != expected) {
        CHECK(!"priming the last error");
    }
}

/* The last error is this thread's INVALID_ARGUMENT, saying which argument is NULL. */
static void check_last_error_says_null(void) {
    telenorid_error *error = telenorid_error_last();
    int ok = error != NULL && telenorid_error_status(error) == TELENORID_E_INVALID_ARGUMENT &&
             strstr(telenorid_error_message(error), "NULL") != NULL;
    if (!check_report(ok, __FILE__, __LINE__, "the last error says what is NULL")) {
        fprintf(stderr, "  in %s: last error %d \"%s\"\n", current, error ? telenorid_error_status(error) : -1,
                error ? telenorid_error_message(error) : "(none)");
    }
    telenorid_error_free(error);
}

static void check_case(int ok, const char *what) {
    if (!check_report(ok, __FILE__, __LINE__, what)) {
        fprintf(stderr, "  in %s\n", current);
    }
}

static const telenorid_store_functions store_functions = {
    sizeof(telenorid_store_functions), stub_store_load_function, stub_store_save_function,
    stub_store_lock_function, stub_store_unlock_function, NULL};

static telenorid_status make_config(telenorid_config **out) {
    static const struct { telenorid_config_key key; const char *value; } settings[] = {
        {TELENORID_CONFIG_ISSUER, "http://127.0.0.1:9"},
        {TELENORID_CONFIG_CLIENT_ID, "sp-app"},
        {TELENORID_CONFIG_REDIRECT_URI, REDIRECT},
        {TELENORID_CONFIG_SCOPE, "openid profile"},
        {TELENORID_CONFIG_AUTHORIZATION_ENDPOINT, "http://127.0.0.1:9/authorize"},
        {TELENORID_CONFIG_TOKEN_ENDPOINT, "http://127.0.0.1:9/token"},
        {TELENORID_CONFIG_ALOHA_URL, "https://127.0.0.1:9/"},
        {TELENORID_CONFIG_CONNECT_TIMEOUT_MS, "1000"},
        {TELENORID_CONFIG_TIMEOUT_MS, "2000"},
    };
    telenorid_config_builder *builder = NULL;
    telenorid_status status = telenorid_config_builder_new(&builder);
    for (size_t i = 0; status == TELENORID_OK && i < sizeof settings / sizeof settings[0]; i++) {
        status = telenorid_config_builder_set(builder, settings[i].key, settings[i].value);
    }
    if (status == TELENORID_OK) status = telenorid_config_builder_build(builder, out);
    telenorid_config_builder_free(builder);
    return status;
}

/* The redirect of fx.pending_auth's own state, handled. */
static telenorid_status make_callback(telenorid_authorization_callback **out) {
    char *state = NULL, url[512];
    telenorid_status status = telenorid_pending_auth_state(fx.pending_auth, &state);
    if (status != TELENORID_OK) return status;
    snprintf(url, sizeof url, REDIRECT "?code=c&state=%s", state);
    telenorid_string_free(state);
    return telenorid_pending_auth_handle_callback(fx.pending_auth, url, out);
}

/* The app-to-app answer to a request of its own that asked for that flow. */
static telenorid_status make_app_callback(telenorid_app_callback **out) {
    telenorid_auth_request *request = NULL;
    telenorid_pending_auth *pending = NULL;
    char *state = NULL, url[512];
    telenorid_status status = telenorid_auth_request_new(fx.config, &request);
    if (status == TELENORID_OK) status = telenorid_auth_request_set_app_to_app(request, APP_CALLBACK);
    if (status == TELENORID_OK) status = telenorid_auth_request_build(request, &pending);
    if (status == TELENORID_OK) status = telenorid_pending_auth_state(pending, &state);
    if (status == TELENORID_OK) {
        snprintf(url, sizeof url, APP_CALLBACK "?state=%s", state);
        status = telenorid_pending_auth_handle_app_callback(pending, url, NULL, out);
    }
    telenorid_string_free(state);
    telenorid_pending_auth_free(pending);
    telenorid_auth_request_free(request);
    return status;
}

static telenorid_status make_params(telenorid_params **out) {
    telenorid_params *params = NULL;
    telenorid_status status = telenorid_idp_initiation_params("alice", "login.example.com", &params);
    if (status == TELENORID_OK) *out = params;
    return status;
}

/* The IdP app's side of fx.pending_auth's request, as it parses it from the SP's URL. */
static telenorid_status make_idp_request(telenorid_idp_request **out) {
    telenorid_idp_request *sp = NULL;
    char *url = NULL;
    const char *callers[] = {REDIRECT};
    telenorid_status status = telenorid_idp_request_new(fx.pending_auth, "login.example.com", "alice", &sp);
    if (status == TELENORID_OK) status = telenorid_idp_request_url(sp, "idpapp://authorize", &url);
    if (status == TELENORID_OK) status = telenorid_idp_request_parse_url(url, "idpapp://authorize", callers, 1, out);
    telenorid_string_free(url);
    telenorid_idp_request_free(sp);
    return status;
}

static telenorid_status make_idp_response(telenorid_idp_response **out) {
    char *state = NULL, url[512];
    telenorid_status status = telenorid_pending_auth_state(fx.pending_auth, &state);
    if (status != TELENORID_OK) return status;
    snprintf(url, sizeof url, REDIRECT "?code=c&state=%s", state);
    telenorid_string_free(state);
    return telenorid_idp_request_respond(fx.idp_request, url, "login.example.com", out);
}

/* Tests/c/null_contract_provider.py, and a confidential client of it (found by discovery). */
static telenorid_status make_provider(void) {
    char *argv[] = {"python3", "Tests/c/null_contract_provider.py", NULL};
    char line[4096];
    if (!first_line(argv, line, sizeof line, &fx.provider_pid) ||
        !field(line, "\"issuer\": \"", fx.issuer, sizeof fx.issuer) ||
        !field(line, "\"access_token\": \"", fx.access_token, sizeof fx.access_token) ||
        !field(line, "\"logout_token\": \"", fx.logout_token_jwt, sizeof fx.logout_token_jwt)) {
        return TELENORID_E_NETWORK;
    }
    const struct { telenorid_config_key key; const char *value; } settings[] = {
        {TELENORID_CONFIG_ISSUER, fx.issuer},
        {TELENORID_CONFIG_CLIENT_ID, PROVIDER_CLIENT_ID},
        {TELENORID_CONFIG_CLIENT_SECRET, "null-contract-secret"},
        {TELENORID_CONFIG_REDIRECT_URI, REDIRECT},
        {TELENORID_CONFIG_SCOPE, "openid"},
    };
    telenorid_config_builder *builder = NULL;
    telenorid_status status = telenorid_config_builder_new(&builder);
    for (size_t i = 0; status == TELENORID_OK && i < sizeof settings / sizeof settings[0]; i++) {
        status = telenorid_config_builder_set(builder, settings[i].key, settings[i].value);
    }
    if (status == TELENORID_OK) status = telenorid_config_builder_build(builder, &fx.provider_config);
    if (status == TELENORID_OK) status = telenorid_client_new(fx.provider_config, &fx.provider_client);
    telenorid_config_builder_free(builder);
    return status;
}

static void stop_provider(void) {
    telenorid_client_free(fx.provider_client);
    telenorid_config_free(fx.provider_config);
    if (fx.provider_pid > 0) {
        kill(fx.provider_pid, SIGTERM);
        waitpid(fx.provider_pid, NULL, 0);
    }
}

/* A poll-mode backchannel authentication for a login hint (CIBA Core §7.1: exactly one hint). */
static telenorid_status make_backchannel_auth(telenorid_backchannel_auth **out) {
    telenorid_auth_request *request = NULL;
    telenorid_status status = telenorid_auth_request_new(fx.provider_config, &request);
    if (status == TELENORID_OK) status = telenorid_auth_request_set(request, TELENORID_AUTH_LOGIN_HINT, "alice");
    if (status == TELENORID_OK) status = telenorid_client_start_backchannel_authentication(fx.provider_client, request, out);
    telenorid_auth_request_free(request);
    return status;
}

/* in_store_load: runs one function's cases inside a host store's load, with fx.store_record the record it
 * was handed (valid only during that call), as the library loads the record of a state it opens. */
static void (*load_cases)(void);
static int loads;

static int32_t load_running_cases(void *user_data, const char *key, telenorid_store_record *record) {
    (void)user_data;
    (void)key;
    loads++;
    fx.store_record = record;
    inside_callback = 1;
    load_cases();
    inside_callback = 0;
    fx.store_record = NULL;
    return TELENORID_OK;
}

static int32_t store_accepts_save(void *user_data, const char *key, const uint8_t *data, size_t len) {
    (void)user_data;
    (void)key;
    (void)data;
    (void)len;
    return TELENORID_OK;
}

static int32_t store_accepts_lock(void *user_data, const char *lock_name, int32_t timeout_ms) {
    (void)user_data;
    (void)lock_name;
    (void)timeout_ms;
    return TELENORID_OK;
}

static int32_t store_accepts_unlock(void *user_data, const char *lock_name) {
    (void)user_data;
    (void)lock_name;
    return TELENORID_OK;
}

static void in_store_load(void (*cases)(void)) {
    static const telenorid_store_functions functions = {
        sizeof(telenorid_store_functions), load_running_cases, store_accepts_save, store_accepts_lock,
        store_accepts_unlock, NULL};
    telenorid_store *store = NULL;
    telenorid_auth_state *state = NULL;
    load_cases = cases;
    loads = 0;
    CHECK(telenorid_store_new(&functions, NULL, &store) == TELENORID_OK);
    /* The load's outcome is the cases' (a record refused fails it): only that it ran is checked here. */
    telenorid_status status = telenorid_auth_state_open_store(fx.client, store, "contract", &state);
    check_case(loads == 1, "the store's load ran the cases once");
    if (status == TELENORID_OK) telenorid_auth_state_free(state);
    telenorid_store_free(store);
}

static telenorid_status make_error(telenorid_error **out) {
    prime_last_error();
    *out = telenorid_error_last();
    return *out != NULL ? TELENORID_OK : TELENORID_E_INVALID_ARGUMENT;
}

'''


def files(found: Declarations) -> Dict[str, str]:
    firsts = families_by_type(found)
    stubs = callback_stubs(found)
    callbacks = {name: stub for name, (stub, _) in stubs.items()}
    order = list(FIXTURES)
    fields = "\n".join(f"    {struct} *{struct[len('telenorid_'):]};" for struct in [*order, *IN_CALLBACK])
    out = [HEAD.format(generated=GENERATED, fields=fields), "@STUBS@", HELPERS]
    cases: List[str] = []
    not_run: List[str] = []
    used_exceptions = set()
    tested: List[str] = []  # the calls of main that run each function's cases
    for function in found.functions:
        pointers = [p for p in function.parameters if p.ctype.depth > 0 or resolve(found, p.ctype.base) in callbacks]
        if not pointers:
            continue
        status = function.restype == CType("telenorid_status", False, 0)
        body: List[str] = []
        for null in pointers:
            key = (function.name, null.name)
            if null.name == "user_data":
                continue
            if key in EXCEPTIONS:
                used_exceptions.add(key)
                continue
            declarations: List[str] = []
            arguments: List[str] = []
            checks: List[str] = []
            missing = None
            for parameter in function.parameters:
                if parameter is null:
                    arguments.append("NULL")
                    continue
                if is_output(parameter, found):
                    ctype = parameter.ctype
                    variable = f"out_{parameter.name}"
                    if ctype.depth == 2:
                        pointer = "*" * (ctype.depth - 1)
                        declarations.append(f"{resolve(found, ctype.base)} {pointer}{variable} = SENTINEL;")
                        checks.append(f"(void *){variable} == SENTINEL")
                    elif resolve(found, ctype.base) == "char":
                        size = BUFFERS.get(parameter.name, 64)
                        declarations.append(f"char {variable}[{size}];")
                        declarations.append(f"memset({variable}, '#', sizeof {variable});")
                        checks.append(f"{variable}[0] == '#' && {variable}[sizeof {variable} - 1] == '#'")
                    else:
                        declarations.append(f"{ctype.base} {variable} = 77;")
                        checks.append(f"{variable} == 77")
                    arguments.append(variable if ctype.depth == 1 and resolve(found, ctype.base) == "char"
                                     else f"&{variable}")
                    continue
                value, why = argument(found, function, parameter, firsts, callbacks)
                if value is None:
                    missing = why
                    break
                arguments.append(value)
            label = f"{function.name}: {null.name} NULL"
            if missing is not None:
                not_run.append(f"{label} ({missing})")
                continue
            body.append("    {")
            body += [f"        {line}" for line in declarations]
            body.append(f'        current = "{label}";')
            call = f"{function.name}({', '.join(arguments)})"
            if status:
                body.append("        prime_last_error();")
                body.append(f"        telenorid_status status = {call};")
                body.append(f'        check_case(status == TELENORID_E_INVALID_ARGUMENT, "{label}: INVALID_ARGUMENT");')
                if function.name not in ANSWERS:
                    body.append("        if (status == TELENORID_E_INVALID_ARGUMENT) check_last_error_says_null();")
                for check in checks:
                    body.append(f'        check_case({check}, "{label}: output untouched");')
            else:
                restype = c_name(function.restype)
                if restype == "void":
                    body.append(f"        {call};")
                else:
                    body.append(f"        {restype} result = {call};")
                    body.append("        (void)result;")
                body.append(f'        check_case(1, "{label}: returns");')
            body.append("    }")
        if body:
            case = f"null_{function.name[len('telenorid_'):]}"
            cases += [f"static void {case}(void) {{", *body, "}", ""]
            helper = in_callback(found, function)
            tested.append(f"    {helper}({case});" if helper else f"    {case}();")
    unused = sorted(set(EXCEPTIONS) - used_exceptions)
    if unused:
        raise SystemExit(f"scripts/gen: emit_c_contract.py: EXCEPTIONS names no such parameter: {unused}")
    out += cases
    used = "\n".join(cases) + HELPERS
    out[1] = "\n".join(line for stub, lines in stubs.values() if stub in used for line in lines)
    report_not_run: List[str] = []
    if not_run:  # a handle type the header gained and FIXTURES not yet: said, case by case, at the end
        out += ["/* Cases whose handle no line of FIXTURES makes: not run. */",
                "static const char *const not_run[] = {"] + [f'    "{line}",' for line in not_run] + ["};", ""]
        report_not_run = [
            '    printf("not run: %zu\\n", sizeof not_run / sizeof not_run[0]);',
            "    for (size_t i = 0; i < sizeof not_run / sizeof not_run[0]; i++) printf(\"  %s\\n\", not_run[i]);"]
    out += [
        "static void make_fixtures(void) {",
        '    snprintf(fx.directory, sizeof fx.directory, "/tmp/telenorid-null-contract-XXXXXX");',
        '    CHECK(mkdtemp(fx.directory) != NULL);',
        '    snprintf(fx.file, sizeof fx.file, "%s/state.json", fx.directory);',
    ]
    out.append('    current = "starting Tests/c/null_contract_provider.py";')
    out.append("    CHECK(make_provider() == TELENORID_OK);")
    for struct in order:
        out.append(f'    current = "making a {struct}";')
        out.append(f"    CHECK({FIXTURES[struct]} == TELENORID_OK);")
    out += ["}", "", "static void free_fixtures(void) {"]
    for struct in reversed(order):
        name = struct[len("telenorid_"):]
        out.append(f"    {FREES.get(struct, struct + '_free')}(fx.{name});")
    out += [
        "    stop_provider();",
        '    char path[160];',
        '    const char *const files[] = {"state.json", "state.json.lock", "state.json.update.lock",',
        '                                 "contract.accounts.json", "contract.accounts.json.lock",',
        '                                 "contract.accounts.json.update.lock"};',
        "    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {",
        '        snprintf(path, sizeof path, "%s/%s", fx.directory, files[i]);',
        "        unlink(path);",
        "    }",
        "    rmdir(fx.directory);",
        "}",
        "",
        "int main(void) {",
        "    signal(SIGSEGV, on_signal);",
        "    signal(SIGBUS, on_signal);",
        "    signal(SIGILL, on_signal);",
        "    signal(SIGTRAP, on_signal);",
        "    signal(SIGABRT, on_signal);",
        "    make_fixtures();",
        *tested,
        "    free_fixtures();",
        *report_not_run,
        "    return finish_checks();",
        "}",
    ]
    return {OUTPUT: "\n".join(out) + "\n"}
