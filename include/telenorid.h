/*
 * telenorid.h — the C contract of libtelenorid, an OpenID Connect / OAuth 2.0 client for native apps.
 *
 * If a function, type or constant does not appear in this file, it is not a published API.
 *
 * Conventions that hold for every function below unless its own comment says otherwise:
 *
 *  - Functions return a telenorid_status. TELENORID_OK (0) means success; anything else is an error
 *    whose detail (a readable message and, where there is one, the OAuth error fields) can be read
 *    with telenorid_error_last() on the same thread, right after the failing call.
 *  - Outputs are pointer parameters named `out`, always last. They are written only when the call
 *    returns TELENORID_OK; a failed call writes no outputs and leaves every handle as it was.
 *  - Every pointer parameter may be NULL: the call then fails with TELENORID_E_INVALID_ARGUMENT.
 *    Every `*_free(NULL)` is a no-op.
 *  - Strings passed in are NUL-terminated UTF-8 and are copied; invalid UTF-8 is refused with
 *    TELENORID_E_INVALID_ARGUMENT, as is any string longer than TELENORID_MAX_INPUT bytes.
 *  - Strings handed out (`char **out`) are owned by the caller and must be released with
 *    telenorid_string_free(), which wipes them first: they may hold secrets.
 *  - Handles are opaque. A handle that was created from another (an authorization request from a
 *    configuration, say) keeps its parent alive, so handles may be freed in any order.
 *  - Thread rules are stated per handle type. Only the client and auth state functions go to the
 *    network (and block, within the configured timeouts); only a change callback the host registers
 *    calls back into it.
 *
 * ABI policy: status codes and enum values are append-only and never renumbered; signatures never
 * change (a changed function gets a new name with a _v2 suffix); the SONAME (libtelenorid.so.0)
 * changes only when the ABI breaks.
 */
#ifndef TELENORID_H
#define TELENORID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------
 * Versions
 * --------------------------------------------------------------------------------------------- */

/* The one home of the version: the Makefile, the bindings and the tests read it from here, and
 * scripts/check_facts.py checks the few copies that cannot (Swift literals, Python and Gradle metadata).
 *   0.1.0  the first release.
 *   0.2.0  12 functions (the session's state file, check and access-token report, Retry-After, the
 *          transient rule, the loopback's expected state, telenorid_client_build_auth_request), 2 status
 *          codes (TELENORID_E_CLIENT_REJECTED, TELENORID_E_TEMPORARILY_UNAVAILABLE) and 4 configuration
 *          keys (28-31) added; telenorid_auth_state_revoke now signs out before it revokes. Nothing removed.
 *   0.3.0  FAPI 2.0 (DPoP, signed request objects, rich authorization, resource indicators, step-up) and
 *          one-call forms of hot operations: 8 functions (telenorid_client_set_dpop_signer,
 *          _set_client_signer, telenorid_auth_state_request_headers, telenorid_auth_request_add_resource,
 *          _set_authorization_details, _set_token_authorization_details, _apply_step_up,
 *          telenorid_pkce_generate), 5 configuration
 *          keys (32-36), 2 token fields (7-8), "endpoint" for TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE;
 *          DPoP tokens are accepted when DPoP is in use; private_key_jwt may come without
 *          client_private_key (a host signer). Nothing removed.
 *   0.4.0  Negotiation with the provider's metadata, the host's edges and cancellation: 2 functions
 *          (telenorid_client_cancel, telenorid_loopback_cancel), 3 status codes (TELENORID_E_PUSH_REFUSED,
 *          TELENORID_E_PROVIDER_UNSUPPORTED, TELENORID_E_CANCELLED), 1 configuration key (37,
 *          TELENORID_CONFIG_CLIENT_KEY_ID); TELENORID_CONFIG_DPOP_SIGNING_ALG takes a preference list;
 *          telenorid_auth_request_build() refuses a request that must be pushed or signed; a removed host
 *          signer is detached from every auth state; calls from inside host callbacks are refused.
 *          Nothing removed.
 *   0.5.0  Grants without a browser on the device, stores, a log callback, one name per concept:
 *          device authorization (RFC 8628: telenorid_client_start_device_authorization,
 *          telenorid_device_authorization_*, key 38), CIBA (telenorid_client_start_backchannel_authentication,
 *          telenorid_backchannel_auth_*, telenorid_login_hint_*, keys 39-40, authorization parameters
 *          10-14), storage (telenorid_store_new, _new_directory, _record_set, _free,
 *          telenorid_auth_state_bind_store, _open_store; a bound state journals each refresh in flight),
 *          accounts (telenorid_accounts_open, _add, _list, _select, _remove, _free), IdP-initiated
 *          sign-in (telenorid_idp_initiation_url, _params, _parse_url, _parse_params),
 *          telenorid_set_log_callback, telenorid_auth_state_resource_answered; 3 status codes
 *          (TELENORID_E_EXPIRED, _STORE_FAILED, _ROTATION_POSSIBLY_LOST); TELENORID_CONFIG_REDIRECT_URI
 *          optional; new names for the callback, line authenticator, loopback listener and host key signer,
 *          the 0.4 names kept as aliases until 1.0. Nothing removed.
 *   0.6.0  The library is built in Embedded Swift (1.3 MB instead of 7 MB; no Swift runtime to load) for
 *          x86_64 and aarch64 Linux. Line authentication: telenorid_line_authenticator_set_resolver
 *          (telenorid_host_resolver, TELENORID_RESOLVER_ANSWER_MAX) and _set_margin; it never uses a proxy.
 *          Request headers only for https or loopback http URLs; a refresh whose write to the store fails
 *          returns TELENORID_E_STORE_FAILED with the new tokens kept, and telenorid_auth_state_save writes
 *          them when the host asks; a refresh or code exchange cancelled after its request was sent
 *          finishes first and keeps its tokens (telenorid_client_cancel). Nothing removed.
 *   0.7.0  Resource servers and machines: token introspection (RFC 7662) and JWT access tokens (RFC 9068)
 *          through telenorid_resource_server_* and telenorid_token_info_* (TELENORID_RESOURCE_SERVER_*,
 *          TELENORID_INFO_*), the client credentials grant (telenorid_client_credentials_*),
 *          TELENORID_CONFIG_INTROSPECTION_ENDPOINT, DPoP proofs checked at a resource server
 *          (telenorid_resource_server_verify_dpop, _dpop_nonce, _set_dpop_replay_cache,
 *          telenorid_dpop_replay_cache_*), back-channel logout (telenorid_backchannel_logout_*,
 *          telenorid_logout_token_*, telenorid_accounts_backchannel_logout,
 *          telenorid_auth_state_backchannel_logout), telenorid_auth_state_sign_out. Nothing removed.
 *   0.8.0  Tokens exchanged and machines' tokens finished: token exchange (RFC 8693: telenorid_token_exchange_*,
 *          telenorid_client_exchange_token, telenorid_issued_token_*, TELENORID_ISSUED_*, TELENORID_TOKEN_TYPE_*),
 *          Native SSO (telenorid_client_native_sso, TELENORID_TOKEN_DEVICE_SECRET), the JWT bearer grant
 *          (telenorid_client_credentials_new_jwt_bearer), resources, DPoP and stores for machine tokens
 *          (telenorid_client_credentials_add_resource, _request_headers, _resource_answered, _bind_store). A client
 *          configured for DPoP now gets DPoP-bound client credentials tokens. Nothing removed. */
#define TELENORID_VERSION_MAJOR 0
#define TELENORID_VERSION_MINOR 8
#define TELENORID_VERSION_PATCH 0
#define TELENORID_VERSION_STRING "0.8.0"

/* The version as one number, 0xMMmmpp: major, minor and patch one byte each. */
#define TELENORID_VERSION_NUMBER \
    ((TELENORID_VERSION_MAJOR << 16) | (TELENORID_VERSION_MINOR << 8) | TELENORID_VERSION_PATCH)

/* True when the header is at least version major.minor.patch. */
#define TELENORID_VERSION_AT_LEAST(major, minor, patch) \
    (TELENORID_VERSION_NUMBER >= (((major) << 16) | ((minor) << 8) | (patch)))

/* The version of the loaded library, encoded like TELENORID_VERSION_NUMBER. A host compares it with
 * the header it was built against: the major numbers must be equal, the library's minor at least the
 * header's. Any thread. */
uint32_t telenorid_version(void);

/* The loaded library's version as a static string such as "0.2.0". Never NULL; do not free. */
const char *telenorid_version_string(void);

/* ------------------------------------------------------------------------------------------------
 * Status codes. Append-only: values are never reused or renumbered.
 * --------------------------------------------------------------------------------------------- */

/* What every function that can fail returns: TELENORID_OK or one of the TELENORID_E_* codes below, which
 * telenorid_status_str() names and telenorid_status_is_transient() classifies. */
typedef int32_t telenorid_status;

#define TELENORID_OK                      0  /* success */
#define TELENORID_E_INVALID_ARGUMENT      1  /* NULL pointer, invalid UTF-8, out of range, too long */
#define TELENORID_E_MALFORMED             2  /* input that does not parse: URL, JSON, parameter */
#define TELENORID_E_CONFIGURATION         3  /* the configuration lacks or misstates something */
#define TELENORID_E_INSECURE              4  /* a URL that must be HTTPS (or loopback) is not */
#define TELENORID_E_UNSUPPORTED           5  /* refused by policy or not implemented, e.g. plain PKCE */
#define TELENORID_E_PARAMETER_CONFLICT    6  /* an extra parameter would override one the library owns */
#define TELENORID_E_RANDOM                7  /* the system's random generator failed */
#define TELENORID_E_STATE_MISMATCH        8  /* a callback's state is not the pending request's */
#define TELENORID_E_REDIRECT_MISMATCH     9  /* a callback did not arrive at the configured URI */
#define TELENORID_E_ISSUER_MISMATCH      10  /* a callback's `iss` (RFC 9207) is not the issuer */
#define TELENORID_E_AUTHORIZATION_ERROR  11  /* the provider answered with an OAuth `error` */
#define TELENORID_E_CONSUMED             12  /* a single-use handle was used a second time */
#define TELENORID_E_VERSION              13  /* serialized data of a version this library can't read */
#define TELENORID_E_TIMEOUT              14  /* the server did not answer in time */
#define TELENORID_E_NETWORK              15  /* no connection: refused, reset, unreachable, unresolved */
#define TELENORID_E_TLS                  16  /* TLS handshake or certificate verification failed */
#define TELENORID_E_HTTP_STATUS          17  /* an HTTP status the call does not accept */
#define TELENORID_E_RESPONSE_TOO_LARGE   18  /* a response body or its headers over the cap */
#define TELENORID_E_INVALID_RESPONSE     19  /* a response that is not what the protocol says */
#define TELENORID_E_TOKEN_INVALID        20  /* an ID token or signed response failed validation */
#define TELENORID_E_AUTHORIZATION_LOST   21  /* the provider refused the refresh token: signed out */
#define TELENORID_E_NOT_SIGNED_IN        22  /* the auth state holds no usable authorization */
#define TELENORID_E_LINE_AUTH_UNAVAILABLE 23 /* line authentication can't run here: not on cellular
                                                (socket hook said so) or no aloha_url configured */
#define TELENORID_E_CLIENT_REJECTED      24  /* the provider refused the client itself (invalid_client,
                                                unauthorized_client): a mistyped or rotated secret, a
                                                revoked key. The user stays signed in */
#define TELENORID_E_TEMPORARILY_UNAVAILABLE 25 /* HTTP 5xx or 429 (or a redirect where an OAuth answer was
                                                expected), whatever OAuth `error` it carried: no verdict,
                                                try again later (see telenorid_error_retry_after) */
#define TELENORID_E_PUSH_REFUSED         26  /* the pushed authorization request endpoint refused the
                                                request (RFC 9126 §2.3) with an OAuth `error` (other than
                                                the client's own rejection, _CLIENT_REJECTED): nothing
                                                reached the user's browser. Since 0.4.0 */
#define TELENORID_E_PROVIDER_UNSUPPORTED 27  /* the provider's metadata lacks what the configuration needs,
                                                e.g. a pushed_authorization_request_endpoint where
                                                requests must be pushed. Since 0.4.0 */
#define TELENORID_E_CANCELLED            28  /* another thread cancelled the call
                                                (telenorid_client_cancel, telenorid_loopback_listener_cancel):
                                                nothing changed; not transient */
#define TELENORID_E_EXPIRED              29  /* the device code (RFC 8628 §3.5) or backchannel request
                                                (CIBA Core §11) expired before the user approved:
                                                `expired_token`, or the deadline the client keeps from
                                                `expires_in`. Start again. Since 0.5.0 */
#define TELENORID_E_STORE_FAILED         30  /* the host's store (telenorid_store_new) failed, its lock was
                                                not had in time, or it returned what is not an auth state;
                                                the message names the operation and the record key, never
                                                the data. Nothing changed. Since 0.5.0 */
#define TELENORID_E_ROTATION_POSSIBLY_LOST 31 /* a refresh was in flight when the process making it stopped
                                                (the store held its marker), and the provider now refuses
                                                the stored refresh token: it probably rotated it for that
                                                refresh, whose answer was never stored. Signed out: sign in
                                                again. Since 0.5.0 */

/* A static, readable name for a status, such as "state mismatch". Never NULL, also for codes this
 * version does not know. Any thread. */
const char *telenorid_status_str(telenorid_status status);

/* 1 when a failure with this status may pass on its own, so the same call may succeed later with nothing
 * changed: TELENORID_E_TIMEOUT, _NETWORK, _TLS (a captive portal, a clock that is off) and
 * _TEMPORARILY_UNAVAILABLE. 0 for every other status, TELENORID_OK and codes this version does not know.
 * The one rule for every host and binding: ask it rather than keeping a copy. Any thread. */
int32_t telenorid_status_is_transient(telenorid_status status);

/* ------------------------------------------------------------------------------------------------
 * Error detail: a thread-local "last error", copied out on request.
 * --------------------------------------------------------------------------------------------- */

/* An immutable copy of one error. May be read from any thread. */
typedef struct telenorid_error telenorid_error;

/* A copy of the last error recorded on the calling thread, or NULL when no call on this thread has
 * failed yet. Successful calls do not clear it: read it right after the failing call. The caller owns
 * the copy and frees it with telenorid_error_free(). */
telenorid_error *telenorid_error_last(void);

/* The status code the error was reported with; TELENORID_E_INVALID_ARGUMENT for NULL. */
telenorid_status telenorid_error_status(const telenorid_error *error);

/* A readable message. Never NULL (a NULL error gives a static message). Valid while `error` lives. Text
 * it quotes from outside (a provider's `error_description`, a token's header) has its control characters
 * (C0, DEL, C1) and bidirectional formatting characters written as visible escapes (`\x1B`, `\u202E`),
 * so it can be printed to a terminal or a log; since 0.6.0. The fields below keep that text as it came. */
const char *telenorid_error_message(const telenorid_error *error);

/* The OAuth `error` code (e.g. "access_denied"), or NULL when the error did not come from the
 * provider. Valid while `error` lives. */
const char *telenorid_error_oauth_error(const telenorid_error *error);

/* The OAuth `error_description`, or NULL. Valid while `error` lives. */
const char *telenorid_error_oauth_description(const telenorid_error *error);

/* The OAuth `error_uri`, or NULL. Valid while `error` lives. */
const char *telenorid_error_oauth_uri(const telenorid_error *error);

/* The HTTP status of the response the error came from, or 0 when there was none. */
int32_t telenorid_error_http_status(const telenorid_error *error);

/* Seconds the server asked to wait before trying again (the `Retry-After` of a 429 or 503 answer, RFC 9110
 * §10.2.3, as delta-seconds or an HTTP-date; a date in the past gives 0), or -1 when it did not say, said
 * more than a day, or the error did not come from such an answer. */
int64_t telenorid_error_retry_after(const telenorid_error *error);

/* Frees an error copy. NULL is a no-op. */
void telenorid_error_free(telenorid_error *error);

/* ------------------------------------------------------------------------------------------------
 * Strings and limits
 * --------------------------------------------------------------------------------------------- */

/* The longest string, in bytes, any function accepts. Longer input gets TELENORID_E_INVALID_ARGUMENT. */
#define TELENORID_MAX_INPUT (1024 * 1024)

/* Wipes and frees a string the library handed out. NULL is a no-op. Any thread. */
void telenorid_string_free(char *string);

/* ------------------------------------------------------------------------------------------------
 * Client configuration
 *
 * A configuration is built once and then immutable: share it freely between threads. A builder is
 * mutable and must not be used from two threads at once.
 * --------------------------------------------------------------------------------------------- */

/* The settings of a configuration while they are being set: telenorid_config_builder_new(),
 * telenorid_config_builder_set(), then telenorid_config_builder_build(). */
typedef struct telenorid_config_builder telenorid_config_builder;
/* A checked, immutable configuration of one client at one provider: from telenorid_config_builder_build(),
 * telenorid_config_from_json() or telenorid_client_config(). */
typedef struct telenorid_config telenorid_config;

/* Keys of the configuration's settings. Append-only. */
typedef int32_t telenorid_config_key;
#define TELENORID_CONFIG_ISSUER                  1  /* https URL (http only on loopback); required */
#define TELENORID_CONFIG_CLIENT_ID               2  /* required */
#define TELENORID_CONFIG_REDIRECT_URI            3  /* absolute URI, used exactly as given; required by the
                                                     flows that redirect the browser back (building an
                                                     authorization request, restoring a pending one:
                                                     TELENORID_E_CONFIGURATION without it), not by ID token
                                                     verification or the grants without a browser (optional
                                                     since 0.5.0) */
#define TELENORID_CONFIG_SCOPE                   4  /* space-separated; default "openid" */
#define TELENORID_CONFIG_AUTHORIZATION_ENDPOINT  5  /* https URL (http only on loopback) */
#define TELENORID_CONFIG_TOKEN_ENDPOINT          6  /* https URL (http only on loopback); like every endpoint
                                                     key, unset means the one discovery gives (OpenID Connect
                                                     Discovery 1.0 §3: token_endpoint), and a call that needs
                                                     one the provider does not name fails with
                                                     TELENORID_E_CONFIGURATION */
#define TELENORID_CONFIG_USERINFO_ENDPOINT       7  /* OIDC Core §5.3; default: discovered userinfo_endpoint */
#define TELENORID_CONFIG_REVOCATION_ENDPOINT     8  /* RFC 7009 §2; default: discovered revocation_endpoint */
#define TELENORID_CONFIG_END_SESSION_ENDPOINT    9  /* OpenID Connect RP-Initiated Logout 1.0 §2; default:
                                                     discovered end_session_endpoint */
#define TELENORID_CONFIG_JWKS_URI               10  /* the provider's key set (RFC 7517) for ID token and signed
                                                     response signatures; default: discovered jwks_uri */
#define TELENORID_CONFIG_ENVIRONMENT            11  /* a name such as "staging"; informational */
#define TELENORID_CONFIG_ALLOW_PLAIN_PKCE       12  /* "true" or "false" (default): see PKCE below */
#define TELENORID_CONFIG_CLIENT_SECRET          13  /* for confidential clients; never in an app */
#define TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD 14 /* none, client_secret_basic, client_secret_post,
                                                       client_secret_jwt, private_key_jwt; default from
                                                       what is set: key → private_key_jwt, secret →
                                                       client_secret_basic, neither → none */
#define TELENORID_CONFIG_CLIENT_PRIVATE_KEY     15  /* PEM or private JWK (RSA >= 2048 bits, EC P-256/384/521,
                                                     Ed25519), read when the configuration is built. A JWK's
                                                     kid is sent in the assertion's header; an RSA JWK's alg
                                                     (RS256..PS512) picks the algorithm, default RS256. A
                                                     key the host holds: telenorid_client_set_client_signer() */
#define TELENORID_CONFIG_CA_FILE                16  /* PEM bundle to verify TLS with, instead of the system's */
#define TELENORID_CONFIG_CA_PATH                17  /* directory of hashed CA certificates */
/* With neither CA_FILE nor CA_PATH set, TLS is verified with the system's CA certificates: the bundle file
 * SSL_CERT_FILE and the hashed directory SSL_CERT_DIR name, when either is set (ignored in a set-user-ID or
 * set-group-ID program); else the first bundle present of /etc/ssl/certs/ca-certificates.crt (Debian, Ubuntu),
 * /etc/pki/tls/certs/ca-bundle.crt (Fedora, RHEL), /etc/ssl/ca-bundle.pem (openSUSE), /etc/pki/tls/cacert.pem,
 * /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem (CentOS, RHEL 7), /etc/ssl/cert.pem (Alpine) (the files
 * Go's crypto/x509 tries); else libcurl's built-in default. Decided once per process, at its first request, so
 * that a libcurl built for one distribution (the Python wheel's) verifies on the others. Since 0.6.0 */
#define TELENORID_CONFIG_PROXY                  18  /* e.g. "http://proxy:3128"; environment proxies are ignored */
#define TELENORID_CONFIG_CONNECT_TIMEOUT_MS     19  /* default 10000 */
#define TELENORID_CONFIG_TIMEOUT_MS             20  /* whole request, default 30000 */
#define TELENORID_CONFIG_MAX_RESPONSE_BYTES     21  /* default 1048576 */
#define TELENORID_CONFIG_CLOCK_TOLERANCE_S      22  /* leeway for exp/iat/nbf, default 120 */
#define TELENORID_CONFIG_CLOCK_OFFSET_S         23  /* added to the local clock, default 0 */
#define TELENORID_CONFIG_TRUSTED_AUDIENCES      24  /* space-separated: other audiences an ID token may name */
#define TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS  25  /* space-separated allow-list; default all asymmetric
                                                       (RS*, PS*, ES*, EdDSA) narrowed to what discovery
                                                       advertises (id_token_ and userinfo_signing_alg_
                                                       values_supported), HS* only with a secret and when
                                                       advertised; "none" is always refused */
#define TELENORID_CONFIG_REFRESH_MARGIN_S       26  /* refresh tokens expiring within this, default 60 */
#define TELENORID_CONFIG_ALOHA_URL              27  /* https base URL of the Aloha line authentication
                                                       service (TelenorID+); without it line auth is off */
#define TELENORID_CONFIG_JWKS_MAX_AGE_S         28  /* seconds a fetched key set is used, default 300
                                                       (1..86400); an older one is fetched again first, so
                                                       a key the provider withdrew stops verifying. While
                                                       that refetch fails, verification fails too */
#define TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE 29 /* aud of a client_secret_jwt / private_key_jwt
                                                       assertion (RFC 7523 §3): "issuer" (default),
                                                       "token_endpoint", the token endpoint URL, or
                                                       "endpoint", the URL of the endpoint it is sent to
                                                       (token, PAR, revocation), for servers that refuse
                                                       the issuer (glewlwyd 2.7.5) */
#define TELENORID_CONFIG_PUSHED_AUTHORIZATION_REQUEST_ENDPOINT 30 /* RFC 9126 §5; default: discovered */
#define TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS 31 /* "true": telenorid_client_build_auth_request() pushes
                                                       every request (RFC 9126), also to a provider that does
                                                       not require it; default "false" (push only when the
                                                       provider's require_pushed_authorization_requests says) */
#define TELENORID_CONFIG_DPOP_SIGNING_ALG       32  /* "ES256", "EdDSA" or "PS256", or several by preference
                                                       ("EdDSA ES256 PS256", since 0.4.0): each sign-in makes a
                                                       DPoP key (RFC 9449) of the first algorithm the provider's
                                                       dpop_signing_alg_values_supported lists (the first one
                                                       when it lists none; no overlap is
                                                       TELENORID_E_CONFIGURATION naming both lists), kept with
                                                       the auth state, and every request proves possession of
                                                       it; tokens are then bound to it. Unset (default): no
                                                       DPoP, unless telenorid_client_set_dpop_signer() gives a
                                                       signer, whose algorithm must then be one the metadata
                                                       lists */
#define TELENORID_CONFIG_DPOP_BIND_AUTHORIZATION_CODE 33 /* "true": send dpop_jkt (RFC 9449 §10) with the
                                                       authorization request; default "false", and a pushed
                                                       request is bound by a DPoP proof on the push (§10.1)
                                                       instead */
#define TELENORID_CONFIG_ALLOW_BEARER_DOWNGRADE 34  /* "true": accept token_type Bearer in answer to a request
                                                       that carried a DPoP proof; default "false" (refused with
                                                       TELENORID_E_INVALID_RESPONSE) */
#define TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS 35 /* "true": send the authorization request as a request
                                                       object signed with TELENORID_CONFIG_CLIENT_PRIVATE_KEY
                                                       or the host's client signer (RFC 9101); default "false" */
#define TELENORID_CONFIG_SECURITY_PROFILE       36  /* "fapi2": follow and enforce the FAPI 2.0 Security
                                                       Profile (see "FAPI 2.0" below); default none */
#define TELENORID_CONFIG_CLIENT_KEY_ID          37  /* the `kid` the provider registered
                                                       TELENORID_CONFIG_CLIENT_PRIVATE_KEY under, sent in the
                                                       header of assertions and request objects; default the
                                                       JWK's own "kid", else the key's RFC 7638 thumbprint.
                                                       Since 0.4.0 */
#define TELENORID_CONFIG_DEVICE_AUTHORIZATION_ENDPOINT 38 /* RFC 8628 §3.1; default: discovered
                                                       (device_authorization_endpoint, RFC 8628 §4).
                                                       Since 0.5.0 */
#define TELENORID_CONFIG_BACKCHANNEL_AUTHENTICATION_ENDPOINT 39 /* OpenID CIBA Core 1.0 §4; default:
                                                       discovered backchannel_authentication_endpoint.
                                                       Since 0.5.0 */
#define TELENORID_CONFIG_BACKCHANNEL_TOKEN_DELIVERY_MODE 40 /* "poll" (default) or "ping" (CIBA Core §5): how a
                                                       backchannel authentication's result is learnt, as the
                                                       client is registered. Since 0.5.0 */
#define TELENORID_CONFIG_INTROSPECTION_ENDPOINT 41 /* RFC 7662 §2; default: discovered
                                                       introspection_endpoint (RFC 8414 §2). Since 0.7.0 */

/* Creates an empty builder. The caller frees it with telenorid_config_builder_free(). */
telenorid_status telenorid_config_builder_new(telenorid_config_builder **out);

/* Sets one setting; `value` NULL clears it. Values are checked when the configuration is built,
 * except that an unknown key fails at once with TELENORID_E_INVALID_ARGUMENT. The library copies
 * TELENORID_CONFIG_CLIENT_SECRET and TELENORID_CONFIG_CLIENT_PRIVATE_KEY only into memory it wipes when
 * the builder or configuration is freed (so does telenorid_config_from_json, in any environment); wiping
 * `value` is the caller's job. */
telenorid_status telenorid_config_builder_set(telenorid_config_builder *builder, telenorid_config_key key,
                                              const char *value);

/* Checks the settings and creates an immutable configuration from them; the builder stays usable.
 * Fails with TELENORID_E_CONFIGURATION when a required setting is missing or a value is not valid,
 * with TELENORID_E_INSECURE when an endpoint is plain http on a non-loopback host. */
telenorid_status telenorid_config_builder_build(const telenorid_config_builder *builder,
                                                telenorid_config **out);

/* Frees a builder. NULL is a no-op. */
void telenorid_config_builder_free(telenorid_config_builder *builder);

/* Creates a configuration from a JSON document: either one object of settings, or
 *   {"default_environment": "production",
 *    "environments": {"staging": {...settings...}, "production": {...settings...}}}
 * Settings use the names of the keys above in lower case ("issuer", "client_id", "redirect_uri",
 * "scope" or "scopes" (an array), "authorization_endpoint", ..., "allow_plain_pkce" (a boolean)).
 * `environment` picks one of "environments"; NULL picks "default_environment". Unknown members are
 * refused, so a misspelt setting is not silently ignored. */
telenorid_status telenorid_config_from_json(const char *json, const char *environment, telenorid_config **out);

/* The value of one setting, or *out = NULL when it is not set. */
telenorid_status telenorid_config_get(const telenorid_config *config, telenorid_config_key key, char **out);

/* Frees a configuration. Handles created from it keep it alive. NULL is a no-op. */
void telenorid_config_free(telenorid_config *config);

/* ------------------------------------------------------------------------------------------------
 * PKCE (RFC 7636)
 *
 * A PKCE pair is immutable: share it freely. It holds the secret verifier, wiped when freed.
 * --------------------------------------------------------------------------------------------- */

/* A PKCE code verifier and its challenge (RFC 7636 §4.1, §4.2): telenorid_pkce_new() or
 * telenorid_pkce_from_verifier(). An authorization request draws its own; this is for a pair on its own. */
typedef struct telenorid_pkce telenorid_pkce;

/* Challenge methods. Append-only. */
typedef int32_t telenorid_pkce_method;
#define TELENORID_PKCE_S256  0  /* BASE64URL(SHA-256(verifier)); the default and the only safe one */
#define TELENORID_PKCE_PLAIN 1  /* challenge = verifier; refused unless the configuration allows it */

/* Creates a verifier of `length` characters (43 to 128; 0 means 64) drawn from the unreserved set
 * [A-Za-z0-9-._~] with the system's CSPRNG, and its S256 challenge. */
telenorid_status telenorid_pkce_new(size_t length, telenorid_pkce **out);

/* Creates a pair from a verifier the caller has (43-128 unreserved characters), e.g. to check a test
 * vector. Anything else is TELENORID_E_INVALID_ARGUMENT. */
telenorid_status telenorid_pkce_from_verifier(const char *verifier, telenorid_pkce **out);

/* Copies out the verifier. It is a secret: send it only to the token endpoint. */
telenorid_status telenorid_pkce_verifier(const telenorid_pkce *pkce, char **out);

/* Copies out the S256 challenge. */
telenorid_status telenorid_pkce_challenge(const telenorid_pkce *pkce, char **out);

/* Frees a pair, wiping the verifier. NULL is a no-op. */
void telenorid_pkce_free(telenorid_pkce *pkce);

/* One call for a fresh pair when the two strings are all a host needs: draws a verifier of `length`
 * characters (43 to 128; 0 means 64) as telenorid_pkce_new does and writes it and its S256 challenge
 * (43 characters) as NUL-terminated strings into the caller's buffers, with no handle and no allocation.
 * `verifier_size` must be at least length + 1 and `challenge_size` at least 44; a smaller size, a NULL
 * buffer or a bad length is TELENORID_E_INVALID_ARGUMENT, and any failure writes nothing. The library
 * keeps no copy of the verifier (its scratch memory is wiped); wiping `verifier` is the caller's job.
 * Thread-safe. */
telenorid_status telenorid_pkce_generate(size_t length, char *verifier, size_t verifier_size, char *challenge,
                                         size_t challenge_size);

/* ------------------------------------------------------------------------------------------------
 * Authorization request
 *
 * A request is a mutable builder. Calls on one request are serialized inside the library, so it may
 * be shared between threads (each call sees the changes of the calls before it), though a host usually
 * builds it on one. Building it draws a fresh state, nonce and PKCE verifier and gives an immutable
 * pending authorization; the request can be built again.
 * --------------------------------------------------------------------------------------------- */

/* An authorization request being put together for one configuration: telenorid_auth_request_new(). */
typedef struct telenorid_auth_request telenorid_auth_request;

/* Authorization request parameters the library knows. Append-only. */
typedef int32_t telenorid_auth_param;
#define TELENORID_AUTH_SCOPE        1  /* overrides the configuration's scope for this request */
#define TELENORID_AUTH_PROMPT       2  /* e.g. "login", "consent", "none" */
#define TELENORID_AUTH_LOGIN_HINT   3  /* login_hint (OIDC Core §3.1.2.1): who the user is, e.g. an e-mail */
#define TELENORID_AUTH_UI_LOCALES   4  /* space-separated BCP 47 tags */
#define TELENORID_AUTH_ACR_VALUES   5  /* space-separated */
#define TELENORID_AUTH_MAX_AGE      6  /* seconds, decimal digits */
#define TELENORID_AUTH_ALOHA_TOKEN  7  /* TelenorID+ line-authentication session id */
#define TELENORID_AUTH_CLAIMS_PURPOSE 8 /* top-level `purpose` of the claims request */
#define TELENORID_AUTH_RESPONSE_MODE 9 /* "query" or "fragment" */
/* The parameters of a backchannel authentication request (OpenID CIBA Core 1.0 §7.1). All but ID_TOKEN_HINT
 * go only into backchannel authentication requests, never into an authorization URL. Since 0.5.0. */
#define TELENORID_AUTH_LOGIN_HINT_TOKEN 10 /* a token naming the user, from the provider's ecosystem */
#define TELENORID_AUTH_ID_TOKEN_HINT 11 /* an ID token naming the user (also sent in authorization URLs) */
#define TELENORID_AUTH_BINDING_MESSAGE 12 /* shown on both devices, to tie them together */
#define TELENORID_AUTH_USER_CODE 13 /* the user's secret code at the provider: held in wiping memory */
#define TELENORID_AUTH_REQUESTED_EXPIRY 14 /* seconds, decimal digits, positive */

/* Where a requested claim should be returned (OIDC Core 5.5). */
typedef int32_t telenorid_claim_target;
#define TELENORID_CLAIMS_ID_TOKEN 1
#define TELENORID_CLAIMS_USERINFO 2

/* Starts a request for `config`. The request keeps the configuration alive. */
telenorid_status telenorid_auth_request_new(const telenorid_config *config, telenorid_auth_request **out);

/* Sets a known parameter; `value` NULL clears it. MAX_AGE must be decimal digits and RESPONSE_MODE
 * "query" or "fragment", else TELENORID_E_INVALID_ARGUMENT. */
telenorid_status telenorid_auth_request_set(telenorid_auth_request *request, telenorid_auth_param param,
                                            const char *value);

/* Adds an extra authorization parameter, sent as given (after percent-encoding). A name the library
 * owns (response_type, client_id, redirect_uri, scope, state, nonce, code_challenge,
 * code_challenge_method, claims, requested_flow, app_callback_uri, request, request_uri, and those of
 * telenorid_auth_param) or a name added twice fails with TELENORID_E_PARAMETER_CONFLICT: use the typed
 * setter instead. */
telenorid_status telenorid_auth_request_add_parameter(telenorid_auth_request *request, const char *name,
                                                      const char *value);

/* Requests one claim in the OIDC `claims` parameter. `essential`: 1 true, 0 false, -1 unspecified.
 * `purpose`, `value_json` (a JSON value) and `values_json` (a JSON array) may each be NULL; JSON that
 * does not parse, or a values_json that is not an array, fails with TELENORID_E_MALFORMED. Requesting
 * the same claim twice for the same target fails with TELENORID_E_PARAMETER_CONFLICT. */
telenorid_status telenorid_auth_request_add_claim(telenorid_auth_request *request, telenorid_claim_target target,
                                                  const char *name, int32_t essential, const char *purpose,
                                                  const char *value_json, const char *values_json);

/* Adds a resource indicator (RFC 8707): an absolute URI without a fragment that the tokens are meant
 * for. Call once per resource; each goes out as a `resource` parameter in the authorization request and
 * again in the code exchange (§2.2). Not a URI, a fragment, or the same URI twice: TELENORID_E_INVALID_ARGUMENT.
 * (A `resource` added with telenorid_auth_request_add_parameter goes only into the authorization request.) */
telenorid_status telenorid_auth_request_add_resource(telenorid_auth_request *request, const char *uri);

/* Sets RFC 9396 rich authorization: `json` is the `authorization_details` array, each member an object
 * with a string `type` (e.g. [{"type":"payment_initiation","instructedAmount":{...}}]); NULL clears it.
 * Anything else is TELENORID_E_INVALID_ARGUMENT. What the provider granted is the auth state's
 * TELENORID_TOKEN_AUTHORIZATION_DETAILS. */
telenorid_status telenorid_auth_request_set_authorization_details(telenorid_auth_request *request, const char *json);

/* Sets the `authorization_details` the code exchange's token request carries (RFC 9396 §6.1), e.g. a
 * subset of those authorized; same JSON rules as telenorid_auth_request_set_authorization_details (anything
 * else is TELENORID_E_INVALID_ARGUMENT, the request unchanged). NULL clears it. By default none is sent
 * and the provider decides: repeating the requested ones would be refused when the user consented to
 * less. Kept by the pending authorization, through telenorid_pending_auth_serialize too. */
telenorid_status telenorid_auth_request_set_token_authorization_details(telenorid_auth_request *request,
                                                                        const char *json);

/* Step-up (RFC 9470): when a resource refused the access token with 401 and `WWW-Authenticate: Bearer
 * error="insufficient_user_authentication"` (or a DPoP challenge with that error), pass the header's value
 * here, on a new request, then sign in again with it. The challenge's acr_values become the request's
 * acr_values and an essential `acr` ID-token claim (so the exchange refuses an ID token whose acr is not
 * one of them, OIDC Core §5.5.1.1: TELENORID_E_TOKEN_INVALID), its max_age the request's max_age. *applied
 * is 1 then; 0, with the request unchanged, for a header that is not a step-up challenge. A malformed
 * max_age is TELENORID_E_INVALID_RESPONSE; a request that already asks for acr, TELENORID_E_PARAMETER_CONFLICT. */
telenorid_status telenorid_auth_request_apply_step_up(telenorid_auth_request *request, const char *www_authenticate,
                                                      int32_t *applied);

/* Asks for Vipps/MobilePay's app-to-app flow: sends requested_flow=app_to_app together with the
 * required app_callback_uri (an absolute URI the provider's app opens when it is done). */
telenorid_status telenorid_auth_request_set_app_to_app(telenorid_auth_request *request,
                                                       const char *app_callback_uri);

/* Chooses the PKCE challenge method; TELENORID_PKCE_PLAIN fails with TELENORID_E_UNSUPPORTED unless
 * the configuration sets TELENORID_CONFIG_ALLOW_PLAIN_PKCE. */
telenorid_status telenorid_auth_request_set_pkce_method(telenorid_auth_request *request,
                                                        telenorid_pkce_method method);

/* Frees a request. NULL is a no-op. */
void telenorid_auth_request_free(telenorid_auth_request *request);

/* ------------------------------------------------------------------------------------------------
 * Pending authorization: the URL to open and the secrets to check its answer with
 *
 * Immutable except for being consumed by its first valid callback; safe to share between threads.
 * --------------------------------------------------------------------------------------------- */

/* A built authorization request waiting for its answer: its URL, state, nonce and PKCE verifier
 * (telenorid_auth_request_build(), telenorid_client_build_auth_request(), telenorid_pending_auth_restore()). */
typedef struct telenorid_pending_auth telenorid_pending_auth;

/* Draws state (256 bits), nonce (256 bits) and a PKCE verifier and builds the authorization URL.
 * Fails with TELENORID_E_CONFIGURATION without an authorization endpoint, and when the request must be
 * pushed or signed, which only telenorid_client_build_auth_request() can do: by the configuration
 * (TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS, _SIGN_AUTHORIZATION_REQUESTS, _SECURITY_PROFILE "fapi2")
 * or, for a configuration from telenorid_client_config(), by the provider's metadata
 * (require_pushed_authorization_requests, require_signed_request_object). Nothing is sent unpushed or
 * unsigned in silence. The request stays usable. */
telenorid_status telenorid_auth_request_build(const telenorid_auth_request *request,
                                              telenorid_pending_auth **out);

/* The authorization URL to open in the system browser. */
telenorid_status telenorid_pending_auth_url(const telenorid_pending_auth *pending, char **out);

/* The request's `state`. */
telenorid_status telenorid_pending_auth_state(const telenorid_pending_auth *pending, char **out);

/* The request's `nonce`, to be found again in the ID token. */
telenorid_status telenorid_pending_auth_nonce(const telenorid_pending_auth *pending, char **out);

/* The PKCE verifier (a secret) for the token request. */
telenorid_status telenorid_pending_auth_code_verifier(const telenorid_pending_auth *pending, char **out);

/* Serializes the pending request to versioned JSON, so an app killed while the browser is open can
 * pick it up again. The JSON holds the PKCE verifier: keep it in the app's private storage. */
telenorid_status telenorid_pending_auth_serialize(const telenorid_pending_auth *pending, char **out);

/* Restores a serialized pending request for `config`. Fails with TELENORID_E_VERSION for a format
 * version this library does not read and TELENORID_E_CONFIGURATION when it was made for another
 * issuer, client id or redirect URI. Each restored copy is single-use on its own: a request serialized
 * and restored twice accepts its redirect once in each copy (the provider redeems the code once). */
telenorid_status telenorid_pending_auth_restore(const telenorid_config *config, const char *json,
                                                telenorid_pending_auth **out);

/* Frees a pending request, wiping its secrets. NULL is a no-op. */
void telenorid_pending_auth_free(telenorid_pending_auth *pending);

/* ------------------------------------------------------------------------------------------------
 * Callback: the redirect that ends the browser part
 *
 * A validated callback is immutable; share it freely.
 * --------------------------------------------------------------------------------------------- */

/* Since 0.5.0 under this name (telenorid_callback before, kept as an alias until 1.0: see the end of this
 * file). The struct keeps its tag, so code naming `struct telenorid_callback` still compiles. */
typedef struct telenorid_callback telenorid_authorization_callback;

/* Checks the redirect the app received against its pending request: the URL must be the configured
 * redirect URI (scheme, host, port and path exactly) with the response in its query, or in its
 * fragment for response_mode=fragment; no parameter may repeat; `state` must match (compared in
 * constant time); an `iss` parameter (RFC 9207) must equal the issuer. An `error` answer fails with
 * TELENORID_E_AUTHORIZATION_ERROR and the OAuth fields in the last error. On success the pending
 * request is consumed: a second callback for it fails with TELENORID_E_CONSUMED. */
telenorid_status telenorid_pending_auth_handle_callback(const telenorid_pending_auth *pending,
                                                        const char *redirect_url,
                                                        telenorid_authorization_callback **out);

/* The authorization code. Since 0.5.0 under this name (telenorid_callback_code before). */
telenorid_status telenorid_authorization_callback_code(const telenorid_authorization_callback *callback,
                                                       char **out);

/* Any parameter of the callback by name (e.g. "scope", "session_state"), or *out = NULL when absent.
 * Since 0.5.0 under this name (telenorid_callback_parameter before). */
telenorid_status telenorid_authorization_callback_parameter(const telenorid_authorization_callback *callback,
                                                            const char *name, char **out);

/* Frees a callback. NULL is a no-op. Since 0.5.0 under this name (telenorid_callback_free before). */
void telenorid_authorization_callback_free(telenorid_authorization_callback *callback);

/* ------------------------------------------------------------------------------------------------
 * App-to-app callback (Vipps/MobilePay): the provider's app returns to the merchant app
 *
 * Immutable; share it freely.
 * --------------------------------------------------------------------------------------------- */

/* What the provider's app opened at the app_callback_uri, checked: telenorid_pending_auth_handle_app_callback(). */
typedef struct telenorid_app_callback telenorid_app_callback;

/* Checks what the provider's app opened at the app_callback_uri: `state` must match the pending
 * request and `resume_uri`, when present, must be https on `allowed_resume_host` (NULL: the host of
 * the request's authorization URL, also for a request restored where no endpoint was configured). An
 * `error` parameter — also in the form `state=...?error=...` that the provider's own examples show — fails
 * with TELENORID_E_AUTHORIZATION_ERROR. A URL that is not the request's app_callback_uri fails with
 * TELENORID_E_REDIRECT_MISMATCH, and a pending request that did not ask for the app-to-app flow with
 * TELENORID_E_CONFIGURATION. The pending request is not consumed: the code still arrives at the redirect
 * URI. */
telenorid_status telenorid_pending_auth_handle_app_callback(const telenorid_pending_auth *pending,
                                                            const char *callback_url,
                                                            const char *allowed_resume_host,
                                                            telenorid_app_callback **out);

/* The `resume_uri` to open in the same browser, or *out = NULL when the provider sent none (the
 * browser that is still open then carries on by itself). */
telenorid_status telenorid_app_callback_resume_uri(const telenorid_app_callback *callback, char **out);

/* Frees an app callback. NULL is a no-op. */
void telenorid_app_callback_free(telenorid_app_callback *callback);

/* ------------------------------------------------------------------------------------------------
 * Client: one provider, its metadata, keys and HTTP connections
 *
 * A client is safe to share between threads: create one per provider and keep it. Its calls block on
 * the network (bounded by the configured timeouts); none calls back into the host.
 * --------------------------------------------------------------------------------------------- */

/* One provider for one configuration: its discovered metadata, key set and HTTP connections;
 * telenorid_client_new(). */
typedef struct telenorid_client telenorid_client;

/* Creates a client for `config`. Makes no network call. The client keeps the configuration alive. */
telenorid_status telenorid_client_new(const telenorid_config *config, telenorid_client **out);

/* Fetches the provider's metadata now (OpenID Connect Discovery, completed from RFC 8414's document),
 * checks its issuer is exactly the configured one, and caches it for 24 hours; the first call that needs
 * it after that fetches it again, and keeps using the old copy if that fetch fails for a transient reason
 * (timeout, network, TLS, HTTP 5xx or 429). Calls that need an endpoint that was
 * not configured discover on first use anyway; this lets a host do it early and see errors early. */
telenorid_status telenorid_client_discover(telenorid_client *client);

/* The configuration with every endpoint the host did not set filled in from discovery: pass it to
 * telenorid_auth_request_new(). Discovers first if needed. */
telenorid_status telenorid_client_config(telenorid_client *client, telenorid_config **out);

/* Builds `request` as telenorid_auth_request_build() does, but with the client's endpoints (configured,
 * else discovered) and, when TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS is "true", the security profile
 * is "fapi2" or the provider's metadata says require_pushed_authorization_requests, pushed first (RFC 9126):
 * the whole request goes to the pushed_authorization_request_endpoint with the client's authentication,
 * and the pending authorization's URL carries only client_id and the request_uri the provider answered.
 * With TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS, or when the metadata says
 * require_signed_request_object (RFC 9101 §10.5), the request goes as a request object signed with the
 * client's key in an algorithm the metadata's request_object_signing_alg_values_supported lists — every
 * parameter as its JSON value: a repeated one (resource) as an array, claims and authorization_details
 * as the JSON they hold, max_age as a number — and is pushed too when the provider requires signed
 * requests and has a push endpoint. Everything else
 * about the pending authorization (state, nonce, PKCE, serialization, the callback check) is as with
 * telenorid_auth_request_build(). Blocks on the network. TELENORID_E_CONFIGURATION when pushing is
 * required but there is no endpoint; the provider's refusal is TELENORID_E_AUTHORIZATION_ERROR (or
 * _CLIENT_REJECTED) with its OAuth error; TELENORID_E_INVALID_ARGUMENT when `request` was made for another
 * client's configuration. `request` may be shared with other threads; *out is freed with
 * telenorid_pending_auth_free(). Since 0.2.0. */
telenorid_status telenorid_client_build_auth_request(telenorid_client *client, const telenorid_auth_request *request,
                                                     telenorid_pending_auth **out);

/* Validates an ID token the host holds (saved earlier, or handed to a backend) as sign-in does, except
 * for what only sign-in knows (at_hash, max_age): the signature with the provider's keys (fetched and
 * cached like discovery), iss, aud and azp, exp, iat and nbf within the clock tolerance and, when `nonce`
 * is not NULL, the nonce. *out is {"header": {...}, "claims": {...}}. A token that fails is
 * TELENORID_E_TOKEN_INVALID with the reason in the message. A token whose key is not in the cached key
 * set while the refetch of the set fails is not judged: the fetch's status (TELENORID_E_TEMPORARILY_UNAVAILABLE
 * for a 5xx, TELENORID_E_NETWORK, ...) until a refetch succeeds; since 0.6.0. Any thread. */
telenorid_status telenorid_client_verify_id_token(telenorid_client *client, const char *id_token, const char *nonce,
                                                  char **out);

/* Frees a client. Auth states created from it keep it alive. NULL is a no-op. */
void telenorid_client_free(telenorid_client *client);

/* Cancellation is per handle: this cancels what is in flight on the client when it is called, not what
 * comes later. Calls that start after it returns run normally. Any thread, also while other threads block
 * in the client's calls; never blocks. NULL is TELENORID_E_INVALID_ARGUMENT. Since 0.4.0.
 * Immediate (within 100 ms): every HTTP transfer under way on `client` and on the auth states made from it
 * that is not a token request of a refresh or code exchange (discovery, key sets, userinfo, revocation,
 * pushed requests, the token requests of device and CIBA polls), every polling wait (device, CIBA), and a
 * refresh or code exchange whose request has not been written yet (resolving, connecting, the TLS
 * handshake): the transfer is abandoned, its connection closed, and the blocking call it belongs to
 * returns TELENORID_E_CANCELLED. Such a call changes nothing: an auth state whose refresh was cancelled
 * keeps its tokens (threads that were waiting for that refresh get the same status), a key set or
 * discovery fetch that was cancelled is not remembered as a failure, and a callback whose exchange was
 * cancelled before its code was written may be exchanged again. Other abandoned requests may have reached
 * the provider.
 * Waiting: a refresh or code exchange whose request libcurl may have written (any byte of it) is never
 * abandoned, since the provider may already have redeemed the code or rotated the refresh token
 * (RFC 9700 §4.14.2) for it: its answer is awaited within the transfer's own timeout
 * (TELENORID_CONFIG_TIMEOUT_MS) and kept, then the call returns TELENORID_E_CANCELLED. A refresh keeps the
 * new tokens in the state and writes them to its store (TELENORID_E_STORE_FAILED instead when the store
 * does not take them; threads waiting for that refresh get the tokens). A code exchange keeps its auth
 * state for the callback: telenorid_client_exchange_code() with the same callback returns it without a
 * request (once; the client keeps the 4 latest). An answer that refuses the request (a signed-out grant:
 * TELENORID_E_AUTHORIZATION_LOST) or does not come (TELENORID_E_TIMEOUT) is returned as it is. */
telenorid_status telenorid_client_cancel(telenorid_client *client);

/* ------------------------------------------------------------------------------------------------
 * FAPI 2.0 (TELENORID_CONFIG_SECURITY_PROFILE "fapi2", the FAPI 2.0 Security Profile, final)
 *
 * Building the configuration refuses what the profile forbids, with TELENORID_E_CONFIGURATION naming the
 * rule: client_secret_* authentication (private_key_jwt, or none with DPoP), no DPoP, plain PKCE, a
 * Bearer downgrade, assertions not addressed to the issuer, keys or ID token algorithms other than
 * PS256, ES256 and EdDSA. At run time every request is pushed (RFC 9126), the callback must carry `iss`
 * (RFC 9207), TLS 1.2 is limited to the BCP 195 cipher suites, and a push answered with a request_uri
 * living 600 seconds or more is TELENORID_E_INVALID_RESPONSE (§5.3.2.2). Authorization codes live at most
 * 60 seconds at such a provider (§5.3.2.2): exchange the code as soon as the callback arrives.
 * --------------------------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------------------------------
 * DPoP: sender-constrained tokens (RFC 9449)
 *
 * With TELENORID_CONFIG_DPOP_SIGNING_ALG set, each sign-in makes a key pair (OpenSSL; the private key
 * in memory that is wiped when freed, saved inside the serialized auth state), and every request the
 * library makes for that sign-in (pushed authorization, code exchange, refresh, userinfo, revocation)
 * carries a DPoP proof: a JWT with typ dpop+jwt, the public jwk, htm, htu (no query or fragment), iat, a
 * random jti, and ath where an access token is presented. A server that answers use_dpop_nonce (400 at
 * the token endpoint, 401 with a DPoP challenge at a resource) gets the request once more with the
 * DPoP-Nonce it gave; asking again after that fails with TELENORID_E_AUTHORIZATION_ERROR (`error`
 * use_dpop_nonce), not a loop. The latest nonce of each server is kept for its next request. A token
 * response to a proof must say token_type DPoP (TELENORID_E_INVALID_RESPONSE otherwise, unless
 * TELENORID_CONFIG_ALLOW_BEARER_DOWNGRADE); without DPoP configured, a DPoP token is refused the same way.
 * --------------------------------------------------------------------------------------------- */

/* Signs for a key the host holds (Android Keystore, Secure Enclave, an HSM): `input` is the JWS signing
 * input (ASCII header.payload, `input_len` bytes); write the signature as JWS carries it (RFC 7518 §3:
 * raw r||s of 64 bytes for ES256, not the DER a keystore returns; the plain signature for PS256 and
 * EdDSA) into `signature`, whose capacity is *signature_len on entry (at least 1024), and set
 * *signature_len to the length written. Return 0 on success, anything else on failure (the request then
 * fails with TELENORID_E_INVALID_ARGUMENT, as it does when *signature_len is set beyond the capacity).
 * Called on the thread making the request, possibly several at once.
 * From inside the callback the host may call only the functions that return no telenorid_status
 * (telenorid_status_str, telenorid_status_is_transient, telenorid_version, telenorid_string_free,
 * telenorid_error_last and the telenorid_error_* accessors): the request it is part of may hold the
 * client's, the auth state's or the state file's lock, so every function that returns a status fails there,
 * on that thread, with TELENORID_E_INVALID_ARGUMENT ("called from inside a host callback") instead of
 * waiting for itself. Since 0.5.0 under this name (telenorid_sign_callback before). */
typedef int32_t (*telenorid_host_key_signer)(void *user_data, const uint8_t *input, size_t input_len,
                                             uint8_t *signature, size_t *signature_len);

/* Makes `client` prove possession with the host's key for every sign-in from now on, instead of keys
 * the library makes: `algorithm` is its JWS algorithm (ES256, PS256, EdDSA, or another asymmetric one)
 * and `public_jwk` its public key as a JWK (checked now: a private JWK or one that can't verify
 * `algorithm` is TELENORID_E_INVALID_ARGUMENT). `callback` NULL removes the signer (the other arguments
 * are then ignored). The auth state of such a sign-in saves only the key's thumbprint, and
 * telenorid_auth_state_restore() / _open_file() refuse it (TELENORID_E_CONFIGURATION) until the same
 * key's signer is set on the client. With TELENORID_CONFIG_SECURITY_PROFILE "fapi2" an algorithm other
 * than PS256, ES256 or EdDSA is TELENORID_E_CONFIGURATION (FAPI 2.0 Security Profile §5.4.1).
 * Lifetime: `user_data` is passed through and must stay valid until this signer is removed or replaced
 * (this function called again), or the client and all its auth states are freed. Removal and replacement
 * wait for the calls of the old callback in flight on other threads to return, then detach it from every
 * auth state and pending authorization that uses it: once this function returns, the old callback is never
 * called again and the host may free its `user_data`. Those states' requests then fail with
 * TELENORID_E_CONFIGURATION ("the DPoP signer was removed"), or, when the replacement is for the same key
 * (same algorithm, JWK thumbprint and "kid"), sign through the new callback. Any thread, but not from inside
 * the callback itself (see telenorid_host_key_signer). */
telenorid_status telenorid_client_set_dpop_signer(telenorid_client *client, const char *algorithm,
                                                  const char *public_jwk, telenorid_host_key_signer callback,
                                                  void *user_data);

/* Makes `client` sign as itself with the host's key instead of TELENORID_CONFIG_CLIENT_PRIVATE_KEY: the
 * private_key_jwt client assertions (RFC 7523) at the pushed authorization, token and revocation
 * endpoints, and request objects (RFC 9101, TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS). With it a
 * configuration may say token_endpoint_auth_method "private_key_jwt" without a client_private_key.
 * `algorithm`, `public_jwk` and `callback` are as for telenorid_client_set_dpop_signer(); the JWK's "kid",
 * when it has one, goes into the JWS header so the provider picks the registered key. With
 * TELENORID_CONFIG_SECURITY_PROFILE "fapi2" an algorithm other than PS256, ES256 or EdDSA is
 * TELENORID_E_CONFIGURATION. `callback` NULL removes the signer (back to the configured key, if any).
 * `user_data` has the lifetime it has for telenorid_client_set_dpop_signer(): removal and replacement
 * wait for the calls in flight, and a request that took the old signer before then fails with
 * TELENORID_E_CONFIGURATION ("the client signer was removed") unless the replacement is for the same key.
 * Any thread, but not from inside a callback. */
telenorid_status telenorid_client_set_client_signer(telenorid_client *client, const char *algorithm,
                                                    const char *public_jwk, telenorid_host_key_signer callback,
                                                    void *user_data);

/* ------------------------------------------------------------------------------------------------
 * Auth state: the tokens of a signed-in user
 *
 * Safe to share between threads. When many threads ask for a fresh token that needs a refresh, one
 * refresh request goes out and all of them get its outcome.
 * --------------------------------------------------------------------------------------------- */

/* The tokens of one sign-in, or a signed-out state: from telenorid_client_exchange_code(), a grant's wait,
 * telenorid_auth_state_restore() or an open from a file or store. Keeps its client alive. */
typedef struct telenorid_auth_state telenorid_auth_state;

/* Parts of the auth state that telenorid_auth_state_get() reads. Append-only. */
typedef int32_t telenorid_token_field;
#define TELENORID_TOKEN_ACCESS_TOKEN     1  /* as it is, even if expired: prefer ..._fresh_access_token */
#define TELENORID_TOKEN_REFRESH_TOKEN    2  /* a secret; a refresh answer without one keeps the old one */
#define TELENORID_TOKEN_ID_TOKEN         3  /* the latest ID token as received (a compact JWS); a refresh
                                               answer without one keeps the one before */
#define TELENORID_TOKEN_ID_TOKEN_CLAIMS  4  /* the validated claims as a JSON object */
#define TELENORID_TOKEN_SCOPE            5  /* the granted scope as the token response last gave it
                                               (RFC 6749 §5.1); absent when the provider never said */
#define TELENORID_TOKEN_TYPE             6  /* "Bearer" or "DPoP", as the provider spelled it */
#define TELENORID_TOKEN_DPOP_THUMBPRINT  7  /* the RFC 7638 thumbprint of the DPoP key the tokens are
                                               bound to (a token's cnf.jkt, RFC 9449 §6) */
#define TELENORID_TOKEN_AUTHORIZATION_DETAILS 8 /* the granted authorization_details (RFC 9396 §7), JSON */
#define TELENORID_TOKEN_DEVICE_SECRET    9  /* the device_secret of OpenID Connect Native SSO 1.0 (§3.4), a
                                               secret: what, with the ID token, lets the vendor's other apps
                                               sign the user in (telenorid_client_native_sso). Asked for with
                                               the device_sso scope; kept with the tokens, in the serialized
                                               state and stores; a newer one replaces it. Since 0.8.0 */

/* Exchanges the code of a validated callback for tokens (sending the PKCE verifier and the client's
 * authentication), validates the ID token (signature, iss, aud, azp, exp, iat, nbf, nonce, at_hash,
 * auth_time against max_age) and creates the auth state. A callback's code is sent once: a second
 * exchange fails with TELENORID_E_CONSUMED. The provider's refusal is TELENORID_E_AUTHORIZATION_ERROR
 * with its `error` fields; an ID token that fails validation is TELENORID_E_TOKEN_INVALID. */
telenorid_status telenorid_client_exchange_code(telenorid_client *client,
                                                const telenorid_authorization_callback *callback,
                                                telenorid_auth_state **out);

/* An access token valid for at least the configured margin (refresh_margin_s, default 60 s),
 * refreshing first when needed (or when the host reported the current one rejected, see
 * telenorid_auth_state_access_token_rejected). How a failed refresh is judged:
 *  - the provider refused the grant: a 4xx with `invalid_grant`, or a 400 or 401 whose body is empty, HTML
 *    or not an OAuth error (some providers answer a dead refresh token so): the state becomes signed out,
 *    the change callback runs once, and the call fails with TELENORID_E_AUTHORIZATION_LOST;
 *  - the provider refused the client (`invalid_client`, `unauthorized_client`): TELENORID_E_CLIENT_REJECTED,
 *    the state keeps its tokens (fix the client's credentials and every user carries on), no callback;
 *  - HTTP 5xx, 429 or 3xx, whatever OAuth `error` the body holds: TELENORID_E_TEMPORARILY_UNAVAILABLE
 *    (with Retry-After, see telenorid_error_retry_after), and the network's own failures
 *    (TELENORID_E_NETWORK, ...): the state as it was, no callback (telenorid_status_is_transient says 1);
 *  - any other OAuth error (`access_denied`, `invalid_scope`, ...): TELENORID_E_AUTHORIZATION_ERROR, the
 *    state as it was.
 * A signed-out state gives TELENORID_E_NOT_SIGNED_IN. When the state is signed out (revoke, or another
 * process through a bound file) while a refresh is in flight, the sign-out wins: the refresh's tokens are
 * neither kept nor announced, they are revoked at the provider (best effort), and every thread waiting for
 * that refresh gets TELENORID_E_NOT_SIGNED_IN. Only `Bearer` tokens, and `DPoP` ones when DPoP is in use
 * (see "DPoP" above), are accepted (RFC 6749 §7.1: a client must not use a token type it does not
 * understand): any other token_type is TELENORID_E_INVALID_RESPONSE. A DPoP token goes to a resource with a
 * proof: use telenorid_auth_state_request_headers() for the host's own calls. */
telenorid_status telenorid_auth_state_fresh_access_token(telenorid_auth_state *state, char **out);

/* Refreshes now, whatever the expiry, with the same outcomes as above. A refresh token that comes back
 * replaces the old one atomically; a response without one keeps the old. */
telenorid_status telenorid_auth_state_refresh(telenorid_auth_state *state);

/* 1 when the state holds tokens, 0 when signed out. */
telenorid_status telenorid_auth_state_is_signed_in(const telenorid_auth_state *state, int32_t *out);

/* One part of the state, or *out = NULL when it is absent (or the state is signed out). */
telenorid_status telenorid_auth_state_get(const telenorid_auth_state *state, telenorid_token_field field, char **out);

/* The access token's expiry in Unix seconds, or 0 when the provider did not say or the state is
 * signed out. */
telenorid_status telenorid_auth_state_expires_at(const telenorid_auth_state *state, int64_t *out);

/* Fetches the userinfo claims with a fresh access token, as a JSON object. A signed (application/jwt)
 * response is verified first; its `sub` must be the ID token's. A 401 (RFC 6750 §3: `WWW-Authenticate:
 * Bearer error="invalid_token"`, or no body at all) for a token the state thought valid refreshes once and
 * asks again; a refused refresh signs out as above (TELENORID_E_AUTHORIZATION_LOST); a second 401 is
 * TELENORID_E_AUTHORIZATION_ERROR with HTTP status 401 and does not sign out. */
telenorid_status telenorid_auth_state_userinfo(telenorid_auth_state *state, char **out);

/* "Is my grant still alive?", e.g. when an app comes back to the foreground. Asks the userinfo endpoint
 * with the current access token, which rotates nothing, and refreshes only when it must: the access token
 * expired or was refused, userinfo answered 403, or the provider has no userinfo endpoint. TELENORID_OK
 * when alive; TELENORID_E_AUTHORIZATION_LOST (now signed out) when the provider refused the grant;
 * TELENORID_E_NOT_SIGNED_IN when the state was signed out already; transient failures as they are, with
 * the state unchanged. Any thread; blocks on the network. */
telenorid_status telenorid_auth_state_check(telenorid_auth_state *state);

/* The two header values for one request of the host's own to a resource server (`method`, and the full
 * `url` it goes to), with a fresh access token (refreshed first as telenorid_auth_state_fresh_access_token()
 * does): *authorization is "DPoP <token>" with *dpop a proof for this method and URL bound to the token
 * (RFC 9449 §7), or, for a Bearer token, "Bearer <token>" with *dpop = NULL. When the resource answers 401
 * with `WWW-Authenticate: DPoP error="use_dpop_nonce"`, call again with its DPoP-Nonce header's value as
 * `resource_nonce` (else NULL) and send once more; the nonce is kept for that server's later requests.
 * A DPoP token is never handed out without its proof: a state whose DPoP key is unknown (bound to a
 * host-held key the client has no signer for) fails with TELENORID_E_CONFIGURATION and writes nothing.
 * A token goes only where the library itself sends requests (RFC 6750 §5.3): a `url` that is not https,
 * or http on a loopback host, or that holds user info, fails with TELENORID_E_INSECURE naming its scheme
 * and host (TELENORID_E_INVALID_ARGUMENT when it is no URL) before any refresh; since 0.6.0.
 * *authorization holds the token: free it with telenorid_string_free(), which wipes it. Any thread. */
telenorid_status telenorid_auth_state_request_headers(telenorid_auth_state *state, const char *method,
                                                      const char *url, const char *resource_nonce,
                                                      char **authorization, char **dpop);

/* Reads a resource server's answer to a request whose headers came from
 * telenorid_auth_state_request_headers(), and says in *retry whether to send that request once more (1,
 * with headers asked for again now) or to take the answer as it is (0). `url` is where the request went,
 * `http_status` the answer's status, `www_authenticate` its WWW-Authenticate header(s) (several joined
 * with ", ", RFC 9110 §5.3; NULL when none), `dpop_nonce` its DPoP-Nonce header (NULL when none), and
 * `authorization_sent` the Authorization value the request carried. A DPoP-Nonce on any answer is kept
 * for that server's later proofs (RFC 9449 §8.2, §9). A 401 asking for the nonce it gave
 * (error="use_dpop_nonce") is a retry; a 401 refusing the token (error="invalid_token", RFC 6750 §3.1, or
 * a challenge without an error: the request carried a token, so the token was refused) reports that token
 * as telenorid_auth_state_access_token_rejected() does, so the retry's headers carry a refreshed token, and
 * is a retry. Anything else (200, 403, a step-up challenge such as insufficient_user_authentication) is 0.
 * Retry once: the retry's own 401 is the answer (the state's refresh failing on the way is
 * TELENORID_E_AUTHORIZATION_LOST from request_headers). No network call. Any thread. Since 0.5.0. */
telenorid_status telenorid_auth_state_resource_answered(telenorid_auth_state *state, const char *url,
                                                       int32_t http_status, const char *www_authenticate,
                                                       const char *dpop_nonce, const char *authorization_sent,
                                                       int32_t *retry);

/* Tells the state that a resource server refused `access_token` with 401 (the host's own API call), so
 * that the next telenorid_auth_state_fresh_access_token() refreshes instead of handing it out again
 * (AppAuth's needsTokenRefresh). `access_token` NULL means the current one; a token the state no longer
 * holds (already refreshed by another thread) changes nothing, so late reports cause no extra refresh.
 * Makes no network call. Any thread. */
telenorid_status telenorid_auth_state_access_token_rejected(telenorid_auth_state *state, const char *access_token);

/* Signs the state out, then revokes the refresh token (or, without one, the access token) at the provider
 * (RFC 7009). Signing out first means a refresh in flight cannot bring the grant back. When the revocation
 * fails, its error is returned and the state stays signed out (the user asked to be). A signed-out state
 * gives TELENORID_E_NOT_SIGNED_IN. The change callback runs once.
 * On a state bound to a file (telenorid_auth_state_bind_file), the file is re-read under its update lock
 * first and the sign-out recorded there: what is revoked is what the file held (the live refresh token,
 * which another process may have rotated to), not what this state last saw. The update lock is never held
 * across a network call, so a refresh out in another process does not hold the sign-out up; that refresh,
 * re-reading the file before it keeps its tokens, finds the sign-out, revokes what it got (best effort),
 * keeps and announces nothing, and fails with TELENORID_E_NOT_SIGNED_IN. When the file says the state was
 * signed out already, this state takes that up (the callback runs) and TELENORID_E_NOT_SIGNED_IN is
 * returned. When the file holds a state of another issuer or client id (TELENORID_E_CONFIGURATION) or its
 * lock can't be had in time (TELENORID_E_TEMPORARILY_UNAVAILABLE, see bind_file), nothing changes and
 * nothing is sent. */
telenorid_status telenorid_auth_state_revoke(telenorid_auth_state *state);

/* The RP-initiated logout URL to open in the browser, with id_token_hint, client_id and, when given,
 * post_logout_redirect_uri and `logout_state` (either may be NULL). Does not sign the state out. */
telenorid_status telenorid_auth_state_end_session_url(const telenorid_auth_state *state,
                                                      const char *post_logout_redirect_uri,
                                                      const char *logout_state, char **out);

/* Serializes the state to versioned JSON. It holds the refresh token: keep it in the platform's
 * secure storage (Android Keystore-backed storage, the iOS Keychain), never in plain files. */
telenorid_status telenorid_auth_state_serialize(const telenorid_auth_state *state, char **out);

/* Restores a serialized state for `client`. TELENORID_E_VERSION for a format this library can't read;
 * TELENORID_E_CONFIGURATION when it was saved for another issuer or client id. */
telenorid_status telenorid_auth_state_restore(telenorid_client *client, const char *json,
                                              telenorid_auth_state **out);

/* Keeps the state in the file at `path` from now on, for hosts where several processes share one
 * sign-in (an app and its widget or extension, two runs of a command). The file is written now and after
 * every change; it is created with mode 0600 and replaced atomically (a new file, opened with O_CLOEXEC so
 * no child process inherits it, renamed over it; the directory is then fsynced), and two companion files
 * are created beside it for the locks, "<path>.lock" and "<path>.update.lock". Every refresh holds an
 * exclusive flock() on "<path>.lock" for its whole round trip, reads the file first and uses a refresh
 * another process already made instead of redeeming the same refresh token twice (providers that rotate
 * refresh tokens revoke the whole grant when one is reused, RFC 9700 §4.14.2); before it keeps its new
 * tokens it re-reads the file under "<path>.update.lock", and a sign-out recorded there meanwhile wins
 * (see telenorid_auth_state_revoke). A sign-out by another process is otherwise seen at the next refresh.
 * What is taken up from the file passes the checks of telenorid_auth_state_restore(): a state saved for
 * another issuer or client id is TELENORID_E_CONFIGURATION, and tokens bound to a DPoP key the host holds
 * stay bound to it, so the client's signer (telenorid_client_set_dpop_signer) must be that key (else
 * TELENORID_E_CONFIGURATION); either way the state and the file stay as they were and nothing is sent.
 * The wait for a lock is bounded by the client's total HTTP timeout (TELENORID_CONFIG_TIMEOUT_MS): a
 * process that holds it longer (stopped in a debugger, say) makes the call fail with
 * TELENORID_E_TEMPORARILY_UNAVAILABLE, whose message names the lock file and, when known, the holder's pid
 * (each holder writes its pid into the lock file); nothing changes, and the call may be made again.
 * A state or lock path that exists and is not a regular file (a FIFO, a directory, a device, a symbolic
 * link) is refused at once with TELENORID_E_CONFIGURATION. The directory must exist.
 * TELENORID_E_CONFIGURATION when the file cannot be written (the message names the system's reason). Any
 * thread. */
telenorid_status telenorid_auth_state_bind_file(telenorid_auth_state *state, const char *path);

/* The state kept in the file at `path`, bound to it as telenorid_auth_state_bind_file() does: signed out
 * when the file does not exist yet (it is then created), so a host opens the same file at every start and
 * signs in when telenorid_auth_state_is_signed_in() says 0. Errors as telenorid_auth_state_restore(),
 * TELENORID_E_CONFIGURATION when the file cannot be read or written or is not a regular file (a FIFO at
 * the path is refused, not waited on), and TELENORID_E_TEMPORARILY_UNAVAILABLE when the lock is held
 * longer than the client's total HTTP timeout (see telenorid_auth_state_bind_file). */
telenorid_status telenorid_auth_state_open_file(telenorid_client *client, const char *path,
                                                telenorid_auth_state **out);

/* Called after every change the host must persist (a refresh, a rotation, a sign-out), on the thread
 * that made the change, after the state's locks are released, so the callback may call back into the
 * state (serialize it, say). `user_data` is passed through. NULL `callback` removes it. */
typedef void (*telenorid_auth_state_callback)(void *user_data);
telenorid_status telenorid_auth_state_set_change_callback(telenorid_auth_state *state,
                                                          telenorid_auth_state_callback callback, void *user_data);

/* Frees an auth state, wiping its tokens. NULL is a no-op. */
void telenorid_auth_state_free(telenorid_auth_state *state);

/* ------------------------------------------------------------------------------------------------
 * Storage: where bound auth states live (Since 0.5.0)
 *
 * A store keeps auth states under record keys, for hosts whose processes share a sign-in (an app and its
 * widget, two runs of a command, several machines behind one database): each state bound to the same key
 * of the same store is one sign-in. Everything telenorid_auth_state_bind_file() says holds through any
 * store: a refresh holds the record's exclusive lock for its whole round trip, starts from what is
 * stored, and uses a refresh another process already made instead of redeeming the same refresh token
 * twice (RFC 9700 §4.14.2); a sign-out is recorded under the update lock and wins over a refresh in
 * flight; what is loaded passes the checks of telenorid_auth_state_restore().
 * Record keys are 1 to 128 of the characters A-Z a-z 0-9 . _ - and do not end in ".update"
 * (TELENORID_E_INVALID_ARGUMENT): the library uses the lock names "<key>" (exclusive) and
 * "<key>.update" (update).
 * Rotation journal: before a refresh request leaves, the stored record is written with a marker (member
 * "refresh_started_at", Unix seconds; no token), and the answer's state replaces it. When the request
 * failed in a way that proves the provider did not act on it (an OAuth error, a connection never made),
 * the marker is cleared; when it may have reached the provider (a timeout or reset after sending, a
 * cancellation, an answer that could not be taken), and when the process stops, it stays. A later refresh
 * that finds a marker (its writer is gone: the exclusive lock was free) refreshes with the stored token
 * all the same; if the provider refuses it, the state signs out with TELENORID_E_ROTATION_POSSIBLY_LOST
 * instead of TELENORID_E_AUTHORIZATION_LOST. A store write that fails after the provider answered keeps
 * the new tokens in this state and leaves the marker; this state writes over it at its next refresh.
 * --------------------------------------------------------------------------------------------- */

/* Where bound auth states are kept: the host's functions (telenorid_store_new()) or a directory of files
 * (telenorid_store_new_directory()). */
typedef struct telenorid_store telenorid_store;
/* What a host's load hands its record through; valid only during that call. */
typedef struct telenorid_store_record telenorid_store_record;

/* The functions of a store the host implements (a keychain, a secret service, a database). Each returns
 * TELENORID_OK (0) or any other status, which the library reports as TELENORID_E_STORE_FAILED naming the
 * operation and the record key (and the host's status), never the data; nothing changes then.
 * Threads: called on any thread the library runs on, possibly at once for different keys and, for one
 * key, for its two locks. From inside them the host may call telenorid_store_record_set() (from load) and
 * the functions that return no status; every other library function fails there with
 * TELENORID_E_INVALID_ARGUMENT, as from inside any host callback (see telenorid_host_key_signer). */

/* Loads record `key`: calls telenorid_store_record_set(record, data, len) once, or not at all when there
 * is no such record (an empty record is none). Since 0.5.0 */
typedef int32_t (*telenorid_store_load_function)(void *user_data, const char *key,
                                                 telenorid_store_record *record);
/* Replaces record `key` with `len` bytes of `data` atomically: a load sees the old record or the new one,
 * never a mix. The bytes hold the refresh token: keep them as secret as the platform allows. Since 0.5.0 */
typedef int32_t (*telenorid_store_save_function)(void *user_data, const char *key, const uint8_t *data,
                                                 size_t len);
/* Takes the lock `lock_name`, waiting at most `timeout_ms` (the client's total HTTP timeout), and returns
 * TELENORID_E_TIMEOUT when it could not. It excludes every holder of the same name across all threads,
 * processes and machines sharing the store, and need not be reentrant: the library never takes a lock it
 * holds. A refresh holds "<key>" across its round trip and takes "<key>.update" inside it. Since 0.5.0 */
typedef int32_t (*telenorid_store_lock_function)(void *user_data, const char *lock_name,
                                                 int32_t timeout_ms);
/* Releases a lock taken by the lock function, on the thread that took it. Since 0.5.0 */
typedef int32_t (*telenorid_store_unlock_function)(void *user_data, const char *lock_name);
/* Called once, on any thread, when the store handle and every auth state bound through it are freed;
 * `user_data` is not used after. Since 0.5.0 */
typedef void (*telenorid_store_release_function)(void *user_data);

/* The host's store: its functions, filled in by the host. Since 0.5.0 */
typedef struct telenorid_store_functions {
    size_t size; /* sizeof(telenorid_store_functions): lets the struct grow append-only */
    telenorid_store_load_function load;
    telenorid_store_save_function store;
    telenorid_store_lock_function lock;
    telenorid_store_unlock_function unlock;
    telenorid_store_release_function release; /* optional (NULL) */
} telenorid_store_functions;

/* A store through the host's `functions` (copied: the struct need not outlive the call), which are called
 * with `user_data`. `functions->size` smaller than the struct of version 0.5.0, or a NULL
 * load, store, lock or unlock: TELENORID_E_INVALID_ARGUMENT (and `release` is not called). Free it with
 * telenorid_store_free(); auth states bound through it keep it alive. Any thread. Since 0.5.0 */
telenorid_status telenorid_store_new(const telenorid_store_functions *functions, void *user_data,
                                     telenorid_store **out);

/* The file store as a store: record `key` is the file "<directory>/<key>.json", with the lock files and
 * guarantees of telenorid_auth_state_bind_file() (its errors too: TELENORID_E_CONFIGURATION and
 * TELENORID_E_TEMPORARILY_UNAVAILABLE, not TELENORID_E_STORE_FAILED). The directory must exist when a
 * state is bound. Any thread. Since 0.5.0 */
telenorid_status telenorid_store_new_directory(const char *directory, telenorid_store **out);

/* Hands the loaded record to the library, from inside the host's load only: `len` bytes of `data`
 * (copied). A second call, or more than TELENORID_MAX_INPUT bytes, is TELENORID_E_INVALID_ARGUMENT and
 * makes the load fail (TELENORID_E_STORE_FAILED). Since 0.5.0 */
telenorid_status telenorid_store_record_set(telenorid_store_record *record, const uint8_t *data, size_t len);

/* Frees a store handle. NULL is a no-op. Since 0.5.0 */
void telenorid_store_free(telenorid_store *store);

/* Keeps `state` in record `key` of `store` from now on, as telenorid_auth_state_bind_file() keeps it in a
 * file: written now (under the record's exclusive lock) and after every change. Any thread. Since 0.5.0 */
telenorid_status telenorid_auth_state_bind_store(telenorid_auth_state *state, telenorid_store *store,
                                                 const char *key);

/* The state kept in record `key` of `store`, bound to it as telenorid_auth_state_bind_store() does:
 * signed out when there is no record yet (one is then written), as telenorid_auth_state_open_file() is.
 * Errors as telenorid_auth_state_restore(), and TELENORID_E_STORE_FAILED for a failing store or a record
 * that is not an auth state. Any thread. Since 0.5.0 */
telenorid_status telenorid_auth_state_open_store(telenorid_client *client, telenorid_store *store,
                                                 const char *key, telenorid_auth_state **out);

/* Writes `state` to the store or file it is bound to now (telenorid_auth_state_bind_store, _open_store,
 * _bind_file, _open_file), under the record's update lock, as its next use would: for a host that was told
 * TELENORID_E_STORE_FAILED by a refresh (the new tokens kept in memory, the record still holding the
 * refresh's marker) and wants them stored before it goes on or exits. What another process recorded since
 * (a refresh, a sign-out) is taken up instead of overwritten (the change callback runs), and a record whose
 * refresh is under way in another process is left to it. TELENORID_E_STORE_FAILED when the store (or file)
 * does not take the write: the tokens stay in memory and in use, and the write is tried again before their
 * next use; TELENORID_E_TEMPORARILY_UNAVAILABLE when the lock is held too long (see
 * telenorid_auth_state_bind_file); TELENORID_E_INVALID_ARGUMENT when the state is bound to no store or
 * file. Makes no network call. Any thread. Since 0.6.0 */
telenorid_status telenorid_auth_state_save(telenorid_auth_state *state);

/* ------------------------------------------------------------------------------------------------
 * Line authentication (TelenorID+ through Aloha).
 *
 * On a cellular network the operator can vouch for the subscriber's line, so the user is signed in
 * without typing anything. The exchange (prepare call to <aloha_url>/hr/v1/prepare/<random uuid>, one
 * plain-http request to the `injectPath` it names, one https redirect back to the Aloha host, a
 * line-authentication session id, `uuid`, valid for `exp` seconds) runs inside the library; that id is then
 * sent as the `aloha_token` authorization parameter. ("Session" below is this line-authentication session.) Only the inject request may be plain http, only on the
 * configured Aloha host; the prepare URL and the redirect target must be https on that host and port;
 * no second redirect is followed. TLS is verified with the configuration's CA settings.
 *
 * No proxy: the exchange never goes through a proxy, neither TELENORID_CONFIG_PROXY nor one named by
 * http_proxy, https_proxy, all_proxy or no_proxy in the environment (CURLOPT_PROXY "", CURLOPT_NOPROXY "*"),
 * since the operator must see the request arrive on the line. Since 0.6.0 (before, a configured proxy
 * carried it). The client's other requests use the configured proxy as before.
 *
 * Threads: a telenorid_line_authenticator may be shared by any number of threads. A host typically
 * calls telenorid_line_authenticator_run() on a background thread of its own when the login screen appears,
 * then telenorid_line_authenticator_apply() on the request when the user signs in: a session still valid then
 * is reused, else the exchange runs again on the calling thread. Both block for the whole exchange (up to
 * the configured timeouts per request); never call them on a UI thread.
 * --------------------------------------------------------------------------------------------- */

/* Since 0.5.0 under this name (telenorid_line_auth before). The struct keeps its tag. */
typedef struct telenorid_line_auth telenorid_line_authenticator;

/* Creates a line authenticator for `config`, which must have TELENORID_CONFIG_ALOHA_URL (else
 * TELENORID_E_LINE_AUTH_UNAVAILABLE; TELENORID_E_INSECURE if it is not https). It keeps what it needs
 * of `config`; the config may be freed first. Free it with telenorid_line_authenticator_free().
 * Since 0.5.0 under this name (telenorid_line_auth_new before). */
telenorid_status telenorid_line_authenticator_new(const telenorid_config *config,
                                                  telenorid_line_authenticator **out);

/* What a socket hook returns for a socket. */
#define TELENORID_SOCKET_ALLOW         0  /* connect it */
#define TELENORID_SOCKET_REFUSE        1  /* don't: the exchange fails with TELENORID_E_NETWORK */
#define TELENORID_SOCKET_NOT_CELLULAR  2  /* don't: no cellular network; the exchange fails with
                                             TELENORID_E_LINE_AUTH_UNAVAILABLE, so the app can ask the
                                             user to turn Wi-Fi off and try again */

/* Called with each socket of the exchange after it is created and before it connects, on the thread
 * running the exchange, with no library lock held. An Android app binds `fd` to the cellular network
 * here (android_setsocknetwork(), or Network.bindSocket() on a ParcelFileDescriptor), and returns
 * TELENORID_SOCKET_NOT_CELLULAR when there is none; an iOS app, which cannot bind a socket to a network,
 * returns TELENORID_SOCKET_NOT_CELLULAR while the device's path is not cellular (NWPathMonitor). Without a
 * hook the exchange uses whatever route the system picks. Any value other than the three above refuses. The
 * hook must not close `fd`. Sockets seen by the hook are never reused by other requests. From inside the
 * hook the host may call only the functions that return no telenorid_status, as from a signer
 * (telenorid_host_key_signer): the others fail there with TELENORID_E_INVALID_ARGUMENT. */
typedef int32_t (*telenorid_socket_hook)(void *user_data, int fd);

/* Sets the socket hook; NULL `hook` removes it. `user_data` is passed through and must stay valid
 * until the hook is replaced or the line authenticator is freed. Takes effect for exchanges that start
 * afterwards. Any thread. Since 0.5.0 under this name (telenorid_line_auth_set_socket_hook before). */
telenorid_status telenorid_line_authenticator_set_socket_hook(telenorid_line_authenticator *line_auth,
                                                              telenorid_socket_hook hook, void *user_data);

/* Called for each host name the exchange must look up, before libcurl would ask the system resolver,
 * on the thread running the exchange, with no library lock held. The host resolves `host` for `port` on
 * the network the exchange must use (Android: android_getaddrinfofornetwork() on the chosen Network, or
 * Network.getAllByName()) and writes the addresses into `out` as NUL-terminated ASCII text: IPv4 dotted quads
 * and IPv6 addresses without brackets or zone, separated by commas or spaces, at most 16, within
 * `out_size` bytes (TELENORID_RESOLVER_ANSWER_MAX, NUL included). libcurl then connects only to those
 * addresses (CURLOPT_RESOLVE), verifying TLS against `host` as usual. It returns TELENORID_SOCKET_ALLOW
 * with the answer written; TELENORID_SOCKET_NOT_CELLULAR when there is no cellular network (the exchange
 * fails with TELENORID_E_LINE_AUTH_UNAVAILABLE); any other value when the name cannot be resolved (the
 * exchange fails with TELENORID_E_NETWORK). An answer that is not such a list fails the exchange with
 * TELENORID_E_INVALID_ARGUMENT. A host that is an IP address literal is not looked up. From inside the
 * resolver the host may call only the functions that return no telenorid_status, as from a socket hook.
 * Since 0.6.0 */
typedef int32_t (*telenorid_host_resolver)(void *user_data, const char *host, int32_t port, uint8_t *out,
                                           size_t out_size);

/* The size of the buffer a telenorid_host_resolver writes into, NUL included. Since 0.6.0 */
#define TELENORID_RESOLVER_ANSWER_MAX 1024

/* Sets the host resolver of the exchange, so that names are looked up on the network the socket hook
 * binds the sockets to; NULL `resolver` removes it. Without one (the default) names are looked up by the
 * system resolver, on the default network, as before 0.6.0. `user_data` is passed through and must stay
 * valid until the resolver is replaced or the line authenticator is freed. Takes effect for exchanges that
 * start afterwards. Any thread. Since 0.6.0 */
telenorid_status telenorid_line_authenticator_set_resolver(telenorid_line_authenticator *line_auth,
                                                           telenorid_host_resolver resolver, void *user_data);

/* Sets the margin, in seconds from 0 to 86400 (else TELENORID_E_INVALID_ARGUMENT): a kept session with
 * that many seconds or fewer left counts as expired, so telenorid_line_authenticator_valid_for() reports 0
 * and telenorid_line_authenticator_apply() runs a fresh exchange rather than send an `aloha_token` that
 * may expire while the user is at the provider. The default is 30 seconds. Any thread. Since 0.6.0 */
telenorid_status telenorid_line_authenticator_set_margin(telenorid_line_authenticator *line_auth, int64_t seconds);

/* Runs one whole exchange now, blocking, and keeps the new session (replacing any older one). On
 * failure the kept session is unchanged and the error says why: TELENORID_E_LINE_AUTH_UNAVAILABLE (not
 * on cellular), TELENORID_E_INSECURE (a URL outside the policy above), TELENORID_E_INVALID_RESPONSE
 * (malformed JSON, missing `injectPath`/`uuid`/`exp`, an `exp` not in 1..86400, no redirect or a second
 * one), TELENORID_E_HTTP_STATUS, TELENORID_E_TIMEOUT, TELENORID_E_NETWORK, TELENORID_E_TLS. Any thread.
 * Since 0.5.0 under this name (telenorid_line_auth_run before). */
telenorid_status telenorid_line_authenticator_run(telenorid_line_authenticator *line_auth);

/* Seconds the kept session is still valid for, less the margin (telenorid_line_authenticator_set_margin(),
 * 30 s by default; since 0.6.0); 0 when there is none or it counts as expired. Any thread.
 * Since 0.5.0 under this name (telenorid_line_auth_valid_for before). */
telenorid_status telenorid_line_authenticator_valid_for(const telenorid_line_authenticator *line_auth,
                                                        int64_t *out);

/* At sign-in: sets `aloha_token` on `request` to the id of a session with more than the margin left, or runs the exchange
 * first (blocking, on this thread) when there is none. When line authentication fails the request is
 * left unchanged and the status and last error say why: the host goes on to sign in without it.
 * TELENORID_E_PARAMETER_CONFLICT if the request already has an aloha_token set by the host (checked
 * before the exchange and again after it; the request is not locked during the exchange).
 * Since 0.5.0 under this name (telenorid_line_auth_apply before). */
telenorid_status telenorid_line_authenticator_apply(telenorid_line_authenticator *line_auth,
                                                    telenorid_auth_request *request);

/* Frees a line authenticator and its kept session. No other thread may still be calling it. NULL is a
 * no-op. Since 0.5.0 under this name (telenorid_line_auth_free before). */
void telenorid_line_authenticator_free(telenorid_line_authenticator *line_auth);

/* ------------------------------------------------------------------------------------------------
 * Loopback redirect listener (RFC 8252 §7.3), for desktop and command-line hosts
 *
 * A socket on 127.0.0.1 that the system browser is redirected to at the end of sign-in. Configure its
 * redirect URI (http://127.0.0.1:<port><path>) as TELENORID_CONFIG_REDIRECT_URI, open the authorization
 * URL in the browser, then wait: the listener answers exactly one GET for its path with a short page and
 * hands back that request's URL, which the host checks with telenorid_pending_auth_handle_callback() like
 * any redirect. Other paths and methods get 404; malformed or oversized requests, and requests whose
 * Host is missing, repeated or not the listener's own (127.0.0.1:<port> or localhost:<port>, the name in
 * any case; on port 80 the name alone: a page whose name was rebound to 127.0.0.1, DNS rebinding, sends
 * its own), get 400; the wait goes on. With telenorid_loopback_listener_expect_state(), a callback on the
 * path without exactly that state gets 400 too. Connections are served side by side: one that does not
 * send its request within 5 seconds is dropped, and past 64 open ones a new connection closes the oldest that
 * has sent nothing (else the oldest), so hundreds of idle or slow connections from another local process
 * do not keep the browser's redirect out. Only 127.0.0.1 is bound.
 * --------------------------------------------------------------------------------------------- */

/* Since 0.5.0 under this name (telenorid_loopback before). The struct keeps its tag. */
typedef struct telenorid_loopback telenorid_loopback_listener;

/* Listens on 127.0.0.1:`port` (0: a free port the system picks) for `path` ("/callback" when NULL; it must
 * start with "/" and be printable ASCII without "?" or "#", else TELENORID_E_INVALID_ARGUMENT). A port in
 * use gives TELENORID_E_NETWORK. Free it with telenorid_loopback_listener_free(), which closes the socket.
 * Since 0.5.0 under this name (telenorid_loopback_new before). */
telenorid_status telenorid_loopback_listener_new(uint16_t port, const char *path,
                                                 telenorid_loopback_listener **out);

/* The redirect URI to configure, e.g. "http://127.0.0.1:53682/callback". Any thread.
 * Since 0.5.0 under this name (telenorid_loopback_redirect_uri before). */
telenorid_status telenorid_loopback_listener_redirect_uri(const telenorid_loopback_listener *listener, char **out);

/* Blocks until the browser's redirect arrives or `timeout_ms` (> 0) passes, and gives its full URL
 * ("http://127.0.0.1:<port><path>?code=...&state=..."). TELENORID_E_TIMEOUT when nothing came in time;
 * the listener can then wait again (so a host can wait in slices and stay cancellable). A listener hands
 * out one redirect: a call after that, or during another thread's wait, fails with
 * TELENORID_E_CONSUMED. Since 0.5.0 under this name (telenorid_loopback_wait before). */
telenorid_status telenorid_loopback_listener_wait(telenorid_loopback_listener *listener, int32_t timeout_ms,
                                                  char **out);

/* Closes the socket and frees the listener. Not while another thread waits on it. NULL is a no-op.
 * Since 0.5.0 under this name (telenorid_loopback_free before). */
void telenorid_loopback_listener_free(telenorid_loopback_listener *listener);

/* Ends a telenorid_loopback_listener_wait() in flight on another thread within 100 ms: it returns
 * TELENORID_E_CANCELLED and the listener can wait again (the redirect it awaits may still come). Cancels
 * only a wait under way when it is called; a later wait runs normally. Any thread; never blocks. NULL is
 * TELENORID_E_INVALID_ARGUMENT. Since 0.4.0 (as telenorid_loopback_cancel; under this name since 0.5.0). */
telenorid_status telenorid_loopback_listener_cancel(telenorid_loopback_listener *listener);

/* Only a callback whose query carries the `state` parameter exactly once, equal to `state` (the pending
 * request's, telenorid_pending_auth_state()), ends the wait; one with no, another or a repeated state, or
 * a query that is not valid form encoding (a repeated parameter included), gets 400 and the wait goes on, so a local process that finds the port cannot end the sign-in with a redirect
 * of its own (RFC 8252 §8.3). Compared in constant time. NULL clears it (any state, as at first); an
 * empty string is TELENORID_E_INVALID_ARGUMENT. The string is copied. Any thread, also during a wait:
 * requests that arrive after it returns are checked against the new value. The state is checked in the
 * query only: with response_mode=fragment the browser keeps the response, state included, to itself, so
 * do not set it then. Since 0.5.0 under this name (telenorid_loopback_expect_state before). */
telenorid_status telenorid_loopback_listener_expect_state(telenorid_loopback_listener *listener,
                                                          const char *state);

/* ------------------------------------------------------------------------------------------------
 * Identity-provider app flow (Salesforce Mobile SDK identity provider style): one trusted app gets
 * codes for other apps
 *
 * A service-provider (SP) app sends the IdP app a request (oauth_client_id, code_challenge,
 * oauth_redirect_uri, comma-separated scopes, user_hint, login_host, state, and nonce) as a URL on the
 * IdP app's scheme (iOS) or as key-value pairs (an Android intent bundle). The IdP app asks the provider
 * for a code on the SP's behalf and hands back only the code (code, login_host, state). Tokens,
 * passwords and PKCE verifiers never pass between the apps. Beyond the Salesforce Mobile SDK's fields
 * the response passes on the provider's RFC 9207 `iss` when it sent one, and the SP checks it like a
 * browser redirect's.
 *
 * Both sides ignore parameters they don't know, in requests and responses alike (RFC 6749 §3.1; the
 * Salesforce Mobile SDK's own SP sends `app_name`), and never pass them on: nothing the library writes
 * afterwards (authorization URL, request or response URL or pairs, callback parameters) carries them.
 * A known parameter given twice fails with TELENORID_E_MALFORMED; in a URL so does any repeated name.
 * The SP's redirect URI may have a query of its own (RFC 6749 §3.1.2): the IdP app's response URL keeps
 * it and appends its pairs with "&", and both the IdP app (reading the provider's redirect) and the SP
 * (reading the response URL) require the redirect URI's own pairs, unchanged, as part of the redirect
 * URI match (TELENORID_E_REDIRECT_MISMATCH otherwise); they are not part of the response.
 *
 * Every handle here is immutable after creation except telenorid_params, which telenorid_params_add
 * changes: don't share a telenorid_params between threads while adding to it. The others may be shared.
 * --------------------------------------------------------------------------------------------- */

/* Ordered key-value pairs (a bundle): names are unique. */
typedef struct telenorid_params telenorid_params;

/* An empty set of pairs. */
telenorid_status telenorid_params_new(telenorid_params **out);

/* Adds a pair. A name already present fails with TELENORID_E_MALFORMED (a repeated parameter could be
 * read differently by two layers); an empty name with TELENORID_E_INVALID_ARGUMENT. */
telenorid_status telenorid_params_add(telenorid_params *params, const char *name, const char *value);

/* The number of pairs. */
telenorid_status telenorid_params_count(const telenorid_params *params, size_t *out);

/* The name, or the value, of pair `index` (0 ≤ index < count); another index fails with
 * TELENORID_E_INVALID_ARGUMENT. */
telenorid_status telenorid_params_name(const telenorid_params *params, size_t index, char **out);
telenorid_status telenorid_params_value(const telenorid_params *params, size_t index, char **out);

/* Frees pairs. NULL is a no-op. */
void telenorid_params_free(telenorid_params *params);

/* The SP app's request to the IdP app: made by the SP (telenorid_idp_request_new()), read by the IdP app
 * (telenorid_idp_request_parse_url(), _parse_params()). */
typedef struct telenorid_idp_request telenorid_idp_request;
/* The IdP app's answer to the SP app, carrying the code: telenorid_idp_request_respond(). */
typedef struct telenorid_idp_response telenorid_idp_response;

/* SP side: the request for the IdP app, from a pending request built with S256 PKCE (anything else
 * fails with TELENORID_E_UNSUPPORTED). `login_host` and `user_hint` may be NULL (not sent). The
 * request carries the challenge, never the verifier; it copies what it needs, so `pending` may be freed
 * first. */
telenorid_status telenorid_idp_request_new(const telenorid_pending_auth *pending, const char *login_host,
                                           const char *user_hint, telenorid_idp_request **out);

/* The request as a URL on the IdP app's URI (e.g. "idpapp://authorize", no query or fragment). */
telenorid_status telenorid_idp_request_url(const telenorid_idp_request *request, const char *idp_app_uri, char **out);

/* The request as key-value pairs, for an Android bundle. Free with telenorid_params_free. */
telenorid_status telenorid_idp_request_params(const telenorid_idp_request *request, telenorid_params **out);

/* SP side: checks the IdP app's response, opened at the configured redirect URI (URL form, with the
 * redirect URI's own query pairs, else TELENORID_E_REDIRECT_MISMATCH) or as a bundle (pairs form),
 * against `pending`: `state` must match (constant time, else TELENORID_E_STATE_MISMATCH); `login_host`
 * must be one of the `count` `allowed_login_hosts` (host or host:port, case-insensitive; with count 0,
 * which allows NULL, the configured issuer's host[:port]), else TELENORID_E_ISSUER_MISMATCH; a repeated
 * known parameter fails with TELENORID_E_MALFORMED, unknown ones are ignored and dropped (the callback's
 * parameters are code, error, error_description, login_host, state and iss only), and an `error` fails
 * with TELENORID_E_AUTHORIZATION_ERROR. On success the pending request is consumed and the
 * callback goes to telenorid_client_exchange_code like a browser redirect's. */
telenorid_status telenorid_pending_auth_handle_idp_response_url(const telenorid_pending_auth *pending,
                                                                const char *url,
                                                                const char *const *allowed_login_hosts,
                                                                size_t count,
                                                                telenorid_authorization_callback **out);
telenorid_status telenorid_pending_auth_handle_idp_response_params(const telenorid_pending_auth *pending,
                                                                   const telenorid_params *params,
                                                                   const char *const *allowed_login_hosts,
                                                                   size_t count,
                                                                   telenorid_authorization_callback **out);

/* IdP side: parses and checks an SP app's request, as a URL that must be on `idp_app_uri` or as pairs.
 * `caller_redirect_uris` (`count` of them; NULL allowed for 0) are the redirect URIs the host app knows
 * belong to the calling app; an oauth_redirect_uri that is not exactly one of them fails with
 * TELENORID_E_REDIRECT_MISMATCH. A code_challenge that is not 43 base64url characters (S256), a
 * redirect URI that is not absolute, a missing state, client id or scopes, a repeated known parameter
 * fail with TELENORID_E_MALFORMED. Unknown parameters are ignored, and the request keeps only the fields
 * above. */
telenorid_status telenorid_idp_request_parse_url(const char *url, const char *idp_app_uri,
                                                 const char *const *caller_redirect_uris, size_t count,
                                                 telenorid_idp_request **out);
telenorid_status telenorid_idp_request_parse_params(const telenorid_params *params,
                                                    const char *const *caller_redirect_uris, size_t count,
                                                    telenorid_idp_request **out);

/* IdP side: the authorization URL to open for the SP: its client id, redirect URI, state, nonce and
 * S256 challenge, scopes space-separated, user_hint as login_hint. The endpoint must be https (http
 * only on loopback), else TELENORID_E_INSECURE. */
telenorid_status telenorid_idp_request_authorization_url(const telenorid_idp_request *request,
                                                         const char *authorization_endpoint, char **out);

/* IdP side: the provider's redirect (to the SP's redirect URI, with its own query pairs if it has any,
 * else TELENORID_E_REDIRECT_MISMATCH, with the SP's state, else TELENORID_E_STATE_MISMATCH) turned into
 * the response for the SP, naming `login_host` (host or host:port) where the code was obtained. A
 * provider `error` becomes an error response for the SP, not a failure. */
telenorid_status telenorid_idp_request_respond(const telenorid_idp_request *request,
                                               const char *provider_redirect_url, const char *login_host,
                                               telenorid_idp_response **out);

/* Frees a request. NULL is a no-op. */
void telenorid_idp_request_free(telenorid_idp_request *request);

/* The response as a URL on the SP's redirect URI (iOS; after "&" when that URI has a query), or as
 * pairs (Android bundle). */
telenorid_status telenorid_idp_response_url(const telenorid_idp_response *response, char **out);
telenorid_status telenorid_idp_response_params(const telenorid_idp_response *response, telenorid_params **out);

/* Frees a response. NULL is a no-op. */
void telenorid_idp_response_free(telenorid_idp_response *response);

/* IdP-initiated sign-in (the Salesforce Mobile SDK's `user_hint`, "a loop-back param for a selected
 * user"): the IdP app launches an SP app for a user the person chose among those signed in to it; the SP
 * app reads the message and starts its own request with telenorid_idp_request_new(pending, login_host,
 * user_hint), and the IdP app, recognising the hint in that request, asks for the code without a login
 * screen (or shows one when it does not). The message holds only `user_hint` (1 to 255 printable ASCII
 * characters, %x20-7E) and `login_host` (host or host:port); it proves nothing, so the SP's own request
 * and the response check stay as above.
 *
 * IdP side: the message as a URL on the SP app's URI (iOS; e.g. "spapp://idp-initiated", no query or
 * fragment) or as pairs (Android bundle; free with telenorid_params_free). A hint or login host that
 * breaks the rule above: TELENORID_E_INVALID_ARGUMENT. Any thread. Since 0.5.0 */
telenorid_status telenorid_idp_initiation_url(const char *sp_app_uri, const char *user_hint,
                                              const char *login_host, char **out);
telenorid_status telenorid_idp_initiation_params(const char *user_hint, const char *login_host,
                                                 telenorid_params **out);

/* SP side: reads the IdP app's message, as a URL that must be on `sp_app_uri` (else
 * TELENORID_E_REDIRECT_MISMATCH) or as pairs, into *user_hint and *login_host (both written on success,
 * neither on failure; free each with telenorid_string_free). A missing or repeated user_hint or
 * login_host, or one that breaks the rule above, fails with TELENORID_E_MALFORMED; unknown parameters are
 * ignored. Any thread. Since 0.5.0 */
telenorid_status telenorid_idp_initiation_parse_url(const char *url, const char *sp_app_uri, char **user_hint,
                                                    char **login_host);
telenorid_status telenorid_idp_initiation_parse_params(const telenorid_params *params, char **user_hint,
                                                       char **login_host);

/* ------------------------------------------------------------------------------------------------
 * Device authorization grant (RFC 8628): sign-in on a device without a browser, or without a keyboard
 * fit for a password (a TV, a command line over SSH). The device shows a short code and a URL; the user
 * approves on a phone or computer; the device waits and gets the tokens.
 *
 * A telenorid_device_authorization keeps its client alive: free them in any order. Its getters may be
 * called from any thread, also during a wait; one wait at a time.
 * --------------------------------------------------------------------------------------------- */

/* A started device authorization (RFC 8628 §3.2): the code for the user and the wait for their approval;
 * telenorid_client_start_device_authorization(). Since 0.5.0 */
typedef struct telenorid_device_authorization telenorid_device_authorization;

/* What telenorid_device_authorization_get() reads. Append-only. Since 0.5.0 */
typedef int32_t telenorid_device_field;
#define TELENORID_DEVICE_USER_CODE                 1 /* the code the user types; show it, never log it */
#define TELENORID_DEVICE_VERIFICATION_URI          2 /* where the user types it */
#define TELENORID_DEVICE_VERIFICATION_URI_COMPLETE 3 /* the URI with the code in it (for a QR code), when
                                                        the provider gives one */

/* Starts the grant (RFC 8628 §3.1): asks the device authorization endpoint
 * (TELENORID_CONFIG_DEVICE_AUTHORIZATION_ENDPOINT, else the discovered device_authorization_endpoint;
 * neither: TELENORID_E_PROVIDER_UNSUPPORTED) with the client's authentication and client_id, for
 * `request`'s scope (else the configuration's), resources (RFC 8707), authorization_details (RFC 9396)
 * and extra parameters; its other parameters (prompt, max_age, claims, login_hint...) belong to a
 * browser's request and are not sent. `request` NULL: the configuration's scope alone. The provider's
 * refusal is TELENORID_E_AUTHORIZATION_ERROR (or _CLIENT_REJECTED, _TEMPORARILY_UNAVAILABLE as for the
 * code exchange). A response without device_code, user_code, verification_uri or expires_in, with an
 * interval or expires_in that is not a whole number of seconds from 0 (interval) or 1 (expires_in) to a
 * day, with a user_code over 64 bytes or a verification URI that is not https (http only to a loopback
 * host) is TELENORID_E_INVALID_RESPONSE. The client keeps the grant at most an hour, whatever
 * expires_in says. Under DPoP the key is made here and bound to the tokens the wait gets. Any thread.
 * Since 0.5.0 */
telenorid_status telenorid_client_start_device_authorization(telenorid_client *client,
                                                             const telenorid_auth_request *request,
                                                             telenorid_device_authorization **out);

/* One field; *out = NULL when it is absent (only TELENORID_DEVICE_VERIFICATION_URI_COMPLETE may be). An
 * unknown field is TELENORID_E_INVALID_ARGUMENT. Any thread. Since 0.5.0 */
telenorid_status telenorid_device_authorization_get(const telenorid_device_authorization *authorization,
                                                    telenorid_device_field field, char **out);

/* When the client gives up waiting (TELENORID_E_EXPIRED), in Unix seconds of the client's clock:
 * expires_in after the response arrived, at most an hour. Any thread. Since 0.5.0 */
telenorid_status telenorid_device_authorization_expires_at(const telenorid_device_authorization *authorization,
                                                           int64_t *out);

/* The seconds between polls now: the provider's interval (5 when it gave none; 0 counts as 1), grown by
 * 5 after each slow_down and doubled (to 60 at most) after each timeout (RFC 8628 §3.5). Any thread.
 * Since 0.5.0 */
telenorid_status telenorid_device_authorization_interval(const telenorid_device_authorization *authorization,
                                                         int32_t *out);

/* Blocks, without using the CPU between polls, until the user approves, then creates the auth state as
 * telenorid_client_exchange_code() does (DPoP-bound when DPoP is in use; the ID token, when one came,
 * validated without a nonce: RFC 8628 has none; some providers send no ID token for this grant). Polls
 * the token endpoint (grant_type urn:ietf:params:oauth:grant-type:device_code, with the client's
 * authentication) every interval; authorization_pending and slow_down go on waiting; the user's refusal
 * (access_denied) is TELENORID_E_AUTHORIZATION_ERROR with the provider's error fields; expired_token, or
 * the deadline of telenorid_device_authorization_expires_at() passing, is TELENORID_E_EXPIRED;
 * telenorid_client_cancel() on its client ends it within 100 ms with TELENORID_E_CANCELLED. After any
 * failure the wait may be called again (it goes on at the interval in force); after a successful one,
 * and while another thread waits, TELENORID_E_CONSUMED. Since 0.5.0 */
telenorid_status telenorid_device_authorization_wait(telenorid_device_authorization *authorization,
                                                     telenorid_auth_state **out);

/* Frees a device authorization (a wait under way keeps it alive until it returns). NULL is a no-op.
 * Since 0.5.0 */
void telenorid_device_authorization_free(telenorid_device_authorization *authorization);

/* ------------------------------------------------------------------------------------------------
 * Client-initiated backchannel authentication (CIBA): OpenID CIBA Core 1.0, poll and ping modes
 *
 * The client (a call centre, a shop's till) names a user with a hint; the provider asks the user on
 * their own device, and the client waits for the result: it polls the token endpoint (poll mode), or in
 * ping mode (TELENORID_CONFIG_BACKCHANNEL_TOKEN_DELIVERY_MODE "ping") the provider calls the client's
 * registered notification endpoint, whose host hands the call to telenorid_backchannel_auth_handle_ping().
 * The backchannel authentication request (§7.1) goes to TELENORID_CONFIG_BACKCHANNEL_AUTHENTICATION_ENDPOINT
 * (else the discovered one) with the client's authentication as at the token endpoint, and carries, from a
 * telenorid_auth_request: its scope (the configuration's when unset; must include openid), ACR_VALUES,
 * exactly one of LOGIN_HINT, LOGIN_HINT_TOKEN and ID_TOKEN_HINT, and BINDING_MESSAGE, USER_CODE,
 * REQUESTED_EXPIRY, resources, authorization_details and extra parameters when set; the other parameters
 * (prompt, max_age, claims, PKCE, response mode...) mean nothing here and are not sent. In ping mode the
 * library draws a client_notification_token of 256 random bits for each request. With
 * TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS the parameters go as a signed `request` (§7.1.1).
 * Handles are safe to share between threads. Since 0.5.0.
 * --------------------------------------------------------------------------------------------- */

/* A started backchannel authentication (CIBA Core §7.3): the provider's auth_req_id and the wait for the user;
 * telenorid_client_start_backchannel_authentication(). Since 0.5.0 */
typedef struct telenorid_backchannel_auth telenorid_backchannel_auth;

/* Sends the backchannel authentication request made from `request` (see above) and returns the
 * provider's acknowledgement. Not exactly one hint, or a scope without openid: TELENORID_E_INVALID_ARGUMENT
 * before any request. The provider's refusal (CIBA Core §13: invalid_request, invalid_scope,
 * expired_login_hint_token, unknown_user_id, missing_user_code, invalid_user_code,
 * invalid_binding_message, access_denied...) is TELENORID_E_AUTHORIZATION_ERROR, invalid_client and
 * unauthorized_client TELENORID_E_CLIENT_REJECTED, with the OAuth error in the last error. An
 * acknowledgement without a usable auth_req_id or expires_in, with a negative or implausible (over a day)
 * expires_in or interval, or over 16 KiB is TELENORID_E_INVALID_RESPONSE. No endpoint configured or
 * discovered: TELENORID_E_CONFIGURATION. Blocks on the network; telenorid_client_cancel() ends it. The
 * handle keeps the client alive; free it with telenorid_backchannel_auth_free(). Since 0.5.0. */
telenorid_status telenorid_client_start_backchannel_authentication(telenorid_client *client,
                                                                   const telenorid_auth_request *request,
                                                                   telenorid_backchannel_auth **out);

/* The provider's auth_req_id (not a secret: it is useless without the client's authentication). Since 0.5.0. */
telenorid_status telenorid_backchannel_auth_id(const telenorid_backchannel_auth *auth, char **out);

/* When the client gives up waiting (TELENORID_E_EXPIRED), in Unix seconds of the client's clock: the
 * acknowledgement's expires_in after it arrived. Since 0.5.0. */
telenorid_status telenorid_backchannel_auth_expires_at(const telenorid_backchannel_auth *auth, int64_t *out);

/* Seconds between polls now: the provider's interval (5 when it gave none), grown by each slow_down.
 * Since 0.5.0. */
telenorid_status telenorid_backchannel_auth_interval(const telenorid_backchannel_auth *auth, int32_t *out);

/* Ping mode (CIBA Core §10.2): checks a call the host's notification endpoint received. `authorization_header`
 * is the value of its Authorization header, which must be "Bearer " and this request's
 * client_notification_token (compared in constant time), and `body` its JSON body, whose auth_req_id must
 * be this request's. A valid ping wakes telenorid_backchannel_auth_wait(), which asks the token endpoint at
 * once; the host answers the provider 204. A wrong or missing bearer token, or another auth_req_id:
 * TELENORID_E_STATE_MISMATCH (answer 401 or 400); a body that is not such JSON: TELENORID_E_MALFORMED; a
 * request started in poll mode: TELENORID_E_CONFIGURATION. A refused ping changes nothing. Any thread.
 * Since 0.5.0. */
telenorid_status telenorid_backchannel_auth_handle_ping(telenorid_backchannel_auth *auth,
                                                        const char *authorization_header, const char *body);

/* Waits for the user's answer on their device and gives the signed-in auth state: asks the token endpoint
 * (grant_type urn:openid:params:grant-type:ciba with the auth_req_id and the client's authentication)
 * every interval, in ping mode also at once after a valid ping (the provider pings only on success, so a
 * refusal or expiry is seen at the next interval). authorization_pending and slow_down go on waiting; the
 * user's refusal (access_denied) is TELENORID_E_AUTHORIZATION_ERROR with the provider's error fields and
 * nothing stored; expired_token, or the deadline of telenorid_backchannel_auth_expires_at() passing, is
 * TELENORID_E_EXPIRED; telenorid_client_cancel() on its client ends it within 100 ms with
 * TELENORID_E_CANCELLED. The auth state is made as by telenorid_client_exchange_code(): its ID token,
 * which the response must carry (else TELENORID_E_INVALID_RESPONSE), validated; DPoP-bound when DPoP is
 * configured. After any failure the wait may be called again (it goes on at the interval in force); after
 * a successful one, and while another thread waits, TELENORID_E_CONSUMED. Since 0.5.0. */
telenorid_status telenorid_backchannel_auth_wait(telenorid_backchannel_auth *auth, telenorid_auth_state **out);

/* Frees the handle (a wait under way keeps it alive until it returns). NULL is a no-op. Since 0.5.0. */
void telenorid_backchannel_auth_free(telenorid_backchannel_auth *auth);

/* The MODRNA / CAMARA forms of a login hint for mobile operators. Since 0.5.0. */
typedef int32_t telenorid_login_hint_form;
#define TELENORID_LOGIN_HINT_PHONE_NUMBER   1 /* tel:+4790000000 (E.164) */
#define TELENORID_LOGIN_HINT_IP_PORT        2 /* ipport:203.0.113.7:5555 or ipport:[2001:db8::7]:5555 */
#define TELENORID_LOGIN_HINT_OPERATOR_TOKEN 3 /* operatortoken:<token the operator issued> */

/* "tel:" and `e164`: "+" and 1 to 15 digits, the first not 0, nothing else (no spaces, no national
 * form), else TELENORID_E_INVALID_ARGUMENT. Since 0.5.0. */
telenorid_status telenorid_login_hint_phone_number(const char *e164, char **out);

/* "ipport:" and `address` (IPv4 dotted decimal without leading zeros, or IPv6 without brackets, no zone)
 * and `port` (1-65535), as the operator's network sees the device; else TELENORID_E_INVALID_ARGUMENT.
 * Since 0.5.0. */
telenorid_status telenorid_login_hint_ip_port(const char *address, int32_t port, char **out);

/* "operatortoken:" and `token` (non-empty printable ASCII without spaces, else
 * TELENORID_E_INVALID_ARGUMENT). Since 0.5.0. */
telenorid_status telenorid_login_hint_operator_token(const char *token, char **out);

/* Which of the forms above `hint` is in; one in none of them, TELENORID_E_INVALID_ARGUMENT. Since 0.5.0. */
telenorid_status telenorid_login_hint_get_form(const char *hint, telenorid_login_hint_form *out);

/* ------------------------------------------------------------------------------------------------
 * Logging
 *
 * The library reports a few events to one process-wide callback the host sets: each HTTP exchange
 * (event "http.request", DEBUG: method, URL without its query or fragment, the HTTP status or the error
 * kind, the time taken in ms), and at INFO or WARNING "discovery.fetched", "jwks.fetched",
 * "token.exchanged", "token.refreshed", "token.refresh_failed" (the error kind, HTTP status and OAuth error
 * code), "auth_state.signed_out", "dpop.nonce_retry" (the server's origin) and "loopback.received" (the
 * listener's path). Messages never carry a token, code, verifier, client secret, key, assertion, proof, a
 * query string, or a request or response body. More events may be added; the text of a message is for
 * people and may change. Since 0.5.0
 * --------------------------------------------------------------------------------------------- */

/* Log levels: Python's logging numbers, so a host maps them as they are. Since 0.5.0 */
#define TELENORID_LOG_DEBUG   10
#define TELENORID_LOG_INFO    20
#define TELENORID_LOG_WARNING 30
#define TELENORID_LOG_ERROR   40

/* Called with one event: its level, its name ("http.request") and a one-line message, both NUL-terminated
 * UTF-8 valid only during the call. It runs on whichever thread the library is working on (any thread
 * that called it), possibly while that call holds a client's or an auth state's lock, and calls are one at
 * a time: a slow callback holds up the library's other threads when they log. From inside it the host
 * may call only the functions that return no telenorid_status, as from a signer
 * (telenorid_host_key_signer): the others fail there with TELENORID_E_INVALID_ARGUMENT. Since 0.5.0 */
typedef void (*telenorid_log_callback)(void *user_data, int32_t level, const char *event, const char *message);

/* Sets the process-wide log callback for events at `min_level` and above (any number: 0 takes every
 * event); NULL `callback` removes it (`min_level` is then ignored). `user_data` is passed through. When
 * this returns, the callback it replaced is not running and will not be called again, so its user data
 * may be freed. Without a callback logging costs one atomic read per event. Any thread. Since 0.5.0 */
telenorid_status telenorid_set_log_callback(telenorid_log_callback callback, void *user_data, int32_t min_level);

/* ------------------------------------------------------------------------------------------------
 * Accounts: the users signed in through one client (Since 0.5.0)
 *
 * A registry of accounts kept in a store (see Storage): the record "<name>.accounts" lists them, and each
 * account's auth state is bound to the record "<name>.<id>", so every process sharing the store sees the
 * same accounts and shares each one's sign-in. An account is a user at an issuer, named by the ID token's
 * `iss` and `sub` (OIDC Core §2); its id is 12 characters of base64url (the first 9 bytes of SHA-256 over
 * the issuer, a NUL byte and the subject), so the same user signing in again replaces their account. A
 * change to the registry holds its record's exclusive lock ("<name>.accounts"), so processes adding at
 * once lose nothing. A registry holds at most 100 accounts in at most 64 KiB. A registry record that is
 * not one: TELENORID_E_MALFORMED. An id not in the registry: TELENORID_E_NOT_SIGNED_IN.
 * Handles are safe to share between threads.
 * --------------------------------------------------------------------------------------------- */

/* The account registry of one client in one store: telenorid_accounts_open(). Since 0.5.0 */
typedef struct telenorid_accounts telenorid_accounts;

/* The registry `name` of `store`, for accounts of `client` (both kept alive by the handle); read now.
 * `name` is a record key (see Storage) of at most 115 characters, else TELENORID_E_INVALID_ARGUMENT.
 * Free it with telenorid_accounts_free(). Since 0.5.0 */
telenorid_status telenorid_accounts_open(telenorid_client *client, telenorid_store *store, const char *name,
                                         telenorid_accounts **out);

/* Adds the signed-in `state` as an account, first in the list, and gives its id: binds `state` to the
 * account's record (as telenorid_auth_state_bind_store() does) and records its issuer, subject, display
 * claims (name, preferred_username, email from the ID token, each when at most 256 bytes) and now as its
 * last use. The same user's earlier account is replaced. A signed-out state: TELENORID_E_NOT_SIGNED_IN;
 * one without an ID token, of another issuer or client id than the registry's client, or a 101st
 * account: TELENORID_E_INVALID_ARGUMENT. Since 0.5.0 */
telenorid_status telenorid_accounts_add(telenorid_accounts *accounts, telenorid_auth_state *state, char **out);

/* The accounts as a JSON array, most recently used first, of objects with "id", "issuer", "subject",
 * "last_used" (Unix seconds) and those of "name", "preferred_username", "email" the ID token had.
 * Since 0.5.0 */
telenorid_status telenorid_accounts_list(telenorid_accounts *accounts, char **out);

/* The account's auth state, opened from its record and bound to it (as telenorid_auth_state_open_store()
 * does); the account becomes the most recently used. Free it with telenorid_auth_state_free(). Since 0.5.0 */
telenorid_status telenorid_accounts_select(telenorid_accounts *accounts, const char *account_id,
                                           telenorid_auth_state **out);

/* Signs the account out, revokes its grant at the provider (RFC 7009, as telenorid_auth_state_revoke()
 * does) and drops it from the registry; its record stays, signed out. A failed revocation (or a record
 * that can't be opened) still drops the account and returns that error; an account already signed out
 * is dropped without a revocation. Blocks on the network. Since 0.5.0 */
telenorid_status telenorid_accounts_remove(telenorid_accounts *accounts, const char *account_id);

/* Frees the handle. NULL is a no-op. Since 0.5.0 */
void telenorid_accounts_free(telenorid_accounts *accounts);

/* ------------------------------------------------------------------------------------------------
 * Resource servers: checking an access token (Since 0.7.0)
 *
 * An API that clients call with access tokens checks each token against the provider in one of two
 * ways: it asks the provider's introspection endpoint (RFC 7662), or, for a JWT access token (RFC 9068),
 * it verifies the token locally with the provider's key set. A telenorid_resource_server is made from a
 * telenorid_client: the resource server's own registration at the provider (the introspection endpoint
 * takes the same client authentication as the token endpoint: client_secret_basic, client_secret_post,
 * client_secret_jwt, private_key_jwt or the host's client signer), whose metadata and key-set caches it
 * shares. What either check learnt is a telenorid_token_info. Access tokens are secrets: the library reads
 * them into memory it wipes, sends them only in an introspection request's body, keeps only their SHA-256
 * (in the introspection cache), and never puts them in a message or the log.
 *
 * A telenorid_resource_server keeps its client alive, a telenorid_token_info nothing; free them in any
 * order. Both are safe to share between threads; a token info never changes.
 * --------------------------------------------------------------------------------------------- */

/* A resource server's checks of access tokens, bound to its client. Since 0.7.0 */
typedef struct telenorid_resource_server telenorid_resource_server;
/* What one check learnt about one access token: immutable. Since 0.7.0 */
typedef struct telenorid_token_info telenorid_token_info;

/* What telenorid_resource_server_set() sets. Append-only. Since 0.7.0 */
typedef int32_t telenorid_resource_server_option;
#define TELENORID_RESOURCE_SERVER_INTROSPECTION_CACHE_MAX_AGE_S 1 /* seconds an introspection answer is
                                                       reused for the same token, "0" to "86400"; default "0"
                                                       (every call asks). An answer is never reused at or past
                                                       the token's exp, so a revoked token can be accepted for
                                                       at most this long. Keeps at most 1024 answers. */
#define TELENORID_RESOURCE_SERVER_ACCESS_TOKEN_SIGNING_ALGS 2 /* space-separated allow-list of the JWS
                                                       algorithms a JWT access token may be signed with, each
                                                       one of RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384
                                                       ES512 EdDSA (no HS*, no none); default all of them,
                                                       narrowed by the FAPI 2.0 profile when it is set */
#define TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT 3      /* "true": also accept a JWT access token whose typ is
                                                       "JWT" (providers that predate RFC 9068); such a token
                                                       need not carry sub, client_id, iat or jti. Default
                                                       "false": only at+jwt */

/* Creates a resource server checking tokens with `client`'s provider. `audience` is this resource server's
 * identifier, which a JWT access token's aud must contain (RFC 9068 §4); it is not checked on an
 * introspection answer. Empty: TELENORID_E_INVALID_ARGUMENT. Free it with telenorid_resource_server_free().
 * Any thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_new(telenorid_client *client, const char *audience,
                                               telenorid_resource_server **out);

/* Sets an option (see above); `value` NULL restores its default. An unknown option, or a value it does not
 * take: TELENORID_E_INVALID_ARGUMENT. Applies to the checks that start after it. Setting the cache's max
 * age to 0 empties the cache. Any thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_set(telenorid_resource_server *server,
                                               telenorid_resource_server_option option, const char *value);

/* Asks the provider about `token` (RFC 7662 §2.1): a POST to TELENORID_CONFIG_INTROSPECTION_ENDPOINT (else
 * the discovered introspection_endpoint; neither: TELENORID_E_CONFIGURATION) with the client's
 * authentication, the token and, when not NULL, `token_type_hint` ("access_token", "refresh_token"). An
 * inactive token is an answer, not an error: *out says active 0. The provider's refusal of the client is
 * TELENORID_E_CLIENT_REJECTED (RFC 7662 §2.3: 401 with invalid_client; a 4xx without an OAuth error, as
 * django-oauth-toolkit's 403, TELENORID_E_HTTP_STATUS), another OAuth error TELENORID_E_AUTHORIZATION_ERROR,
 * 5xx and 429 TELENORID_E_TEMPORARILY_UNAVAILABLE; an answer that is not a JSON object with a boolean
 * `active`, or whose scope, client_id, username, token_type, sub, iss, jti, exp, iat, nbf, aud or cnf has
 * the wrong type: TELENORID_E_INVALID_RESPONSE; over 64 KiB: TELENORID_E_RESPONSE_TOO_LARGE. With the cache
 * on, an answer kept for the same token is handed out without a request. Blocks on the network;
 * telenorid_client_cancel() on the client ends it. Any thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_introspect(telenorid_resource_server *server, const char *token,
                                                      const char *token_type_hint, telenorid_token_info **out);

/* Verifies a JWT access token locally (RFC 9068 §4) with the provider's key set (the client's jwks_uri,
 * cached as for ID tokens: TELENORID_CONFIG_JWKS_MAX_AGE_S): a JWS in compact form whose typ is at+jwt or
 * application/at+jwt (any case; "JWT" too with TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT), signed with an
 * allowed algorithm by a key of the set, with iss the configured issuer, aud containing the resource
 * server's audience, exp not passed and nbf and iat not in the future (give or take
 * TELENORID_CONFIG_CLOCK_TOLERANCE_S), and, for at+jwt, the sub, client_id, iat and jti RFC 9068 §2.2
 * requires. Any refusal is TELENORID_E_TOKEN_INVALID with the last error saying which check failed (not a
 * JWT; typ JWT or another typ; algorithm; signature; issuer; audience; times; a missing claim); a key set
 * that can't be fetched is that fetch's failure. Blocks on the network only to fetch the key set. Any
 * thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_verify_access_token(telenorid_resource_server *server,
                                                               const char *token, telenorid_token_info **out);

/* Frees a resource server. NULL is a no-op. Since 0.7.0 */
void telenorid_resource_server_free(telenorid_resource_server *server);

/* What telenorid_token_info_get() and telenorid_token_info_time() read: members of an introspection answer
 * (RFC 7662 §2.2) or a JWT access token's claims (RFC 9068 §2.2). Append-only. Since 0.7.0 */
typedef int32_t telenorid_token_info_field;
#define TELENORID_INFO_SCOPE       1  /* space-separated scopes */
#define TELENORID_INFO_CLIENT_ID   2  /* the client the token was issued to */
#define TELENORID_INFO_USERNAME    3  /* introspection only: a name of the resource owner */
#define TELENORID_INFO_TOKEN_TYPE  4  /* introspection only: e.g. "Bearer", "DPoP" */
#define TELENORID_INFO_SUB         5  /* the subject */
#define TELENORID_INFO_AUD         6  /* the audiences, separated by one space (exactly:
                                         telenorid_token_info_member(info, "aud")) */
#define TELENORID_INFO_ISS         7  /* the issuer */
#define TELENORID_INFO_JTI         8  /* the token's identifier */
#define TELENORID_INFO_CNF_JKT     9  /* the RFC 7638 thumbprint of the DPoP key the token is bound to
                                         (cnf.jkt, RFC 9449 §6) */
#define TELENORID_INFO_EXP        10  /* expiry; the times are read by telenorid_token_info_time() (NumericDate,
                                         RFC 7519 §2, in whole seconds) */
#define TELENORID_INFO_IAT        11  /* issued at */
#define TELENORID_INFO_NBF        12  /* not before */

/* 1 when the token is active (RFC 7662 §2.2; a verified JWT access token is), else 0. Since 0.7.0 */
telenorid_status telenorid_token_info_active(const telenorid_token_info *info, int32_t *out);

/* One string member (TELENORID_INFO_SCOPE to _CNF_JKT); *out = NULL when absent. Another field:
 * TELENORID_E_INVALID_ARGUMENT. Since 0.7.0 */
telenorid_status telenorid_token_info_get(const telenorid_token_info *info, telenorid_token_info_field field,
                                          char **out);

/* One time member (TELENORID_INFO_EXP, _IAT, _NBF) in Unix seconds; *out = 0 when absent. Another field:
 * TELENORID_E_INVALID_ARGUMENT. Since 0.7.0 */
telenorid_status telenorid_token_info_time(const telenorid_token_info *info, telenorid_token_info_field field,
                                           int64_t *out);

/* Any member by name, as JSON text (a string member comes quoted); *out = NULL when absent. Since 0.7.0 */
telenorid_status telenorid_token_info_member(const telenorid_token_info *info, const char *name, char **out);

/* The whole introspection answer, or the JWT access token's claims, as one JSON object. Since 0.7.0 */
telenorid_status telenorid_token_info_json(const telenorid_token_info *info, char **out);

/* Frees a token info. NULL is a no-op. Since 0.7.0 */
void telenorid_token_info_free(telenorid_token_info *info);

/* ------------------------------------------------------------------------------------------------
 * Client credentials: a machine's own access token (RFC 6749 §4.4) (Since 0.7.0)
 *
 * A confidential client asks the token endpoint for a token in its own name, with its authentication (as
 * configured) and no user. The handle keeps the token and asks again when it is about to expire
 * (TELENORID_CONFIG_REFRESH_MARGIN_S) or a resource server refused it: one request at a time, whose outcome
 * every thread waiting for a token shares. Kept in memory, and since 0.8.0, with
 * telenorid_client_credentials_bind_store(), in a store shared by processes. A telenorid_client_credentials
 * keeps its client alive; safe to share between threads.
 * Since 0.8.0 the same handle holds a token of the JWT bearer grant (RFC 7523 §2.1,
 * telenorid_client_credentials_new_jwt_bearer()), and a client configured for DPoP (RFC 9449:
 * TELENORID_CONFIG_DPOP_SIGNING_ALG or telenorid_client_set_dpop_signer()) gets DPoP-bound tokens, one key
 * per handle: present them with telenorid_client_credentials_request_headers(), which makes each request's
 * proof. (In 0.7.0 these tokens were bearer tokens whatever the configuration.)
 * --------------------------------------------------------------------------------------------- */

/* A machine's access token from the client credentials grant, kept and renewed. Since 0.7.0 */
typedef struct telenorid_client_credentials telenorid_client_credentials;

/* Prepares the grant for `scope` (NULL: no scope parameter, the provider's default for the client; empty:
 * TELENORID_E_INVALID_ARGUMENT). No request is made yet. A public client
 * (TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD "none"): TELENORID_E_CONFIGURATION. Free it with
 * telenorid_client_credentials_free(). Any thread. Since 0.7.0 */
telenorid_status telenorid_client_credentials_new(telenorid_client *client, const char *scope,
                                                  telenorid_client_credentials **out);

/* An access token valid for at least the refresh margin: the one held, else a new one from the token
 * endpoint (grant_type client_credentials). The provider's refusal is TELENORID_E_AUTHORIZATION_ERROR
 * (invalid_scope...) or TELENORID_E_CLIENT_REJECTED (invalid_client, unauthorized_client). The caller frees
 * *out with telenorid_string_free(). Blocks on the network; telenorid_client_cancel() ends it. Any thread.
 * Since 0.7.0 */
telenorid_status telenorid_client_credentials_access_token(telenorid_client_credentials *credentials, char **out);

/* When the token held expires, in Unix seconds of the client's clock; 0 when none is held or the provider
 * gave no expires_in. Any thread. Since 0.7.0 */
telenorid_status telenorid_client_credentials_expires_at(const telenorid_client_credentials *credentials,
                                                         int64_t *out);

/* A resource server refused `access_token` (NULL: the one held): the next
 * telenorid_client_credentials_access_token() asks for a new one. A token no longer held changes nothing. Any thread. Since 0.7.0 */
telenorid_status telenorid_client_credentials_rejected(telenorid_client_credentials *credentials,
                                                       const char *access_token);

/* Adds a resource indicator (RFC 8707 §2): an absolute URI without a fragment that the token is meant for;
 * each goes out as a `resource` parameter of every token request. Not a URI, a fragment, or the same URI
 * twice: TELENORID_E_INVALID_ARGUMENT. A token held was asked for without it: the next
 * telenorid_client_credentials_access_token() asks for a new one. Any thread. Since 0.8.0 */
telenorid_status telenorid_client_credentials_add_resource(telenorid_client_credentials *credentials,
                                                           const char *uri);

/* A token of the JWT bearer grant (RFC 7523 §2.1: grant_type urn:ietf:params:oauth:grant-type:jwt-bearer)
 * for `scope` (as telenorid_client_credentials_new()), from exactly one of (else
 * TELENORID_E_INVALID_ARGUMENT):
 *   `assertion`, a JWT the host made (copied; secret): sent once, so the token it brings is not renewed;
 *   asking after it expired or was refused is TELENORID_E_CONSUMED (make a new handle with a new assertion);
 *   `subject`, the `sub` of assertions the library makes and signs with the client's own key
 *   (TELENORID_CONFIG_CLIENT_PRIVATE_KEY or telenorid_client_set_client_signer(): the private_key_jwt key,
 *   else TELENORID_E_CONFIGURATION now), a new one for each request: `iss` the client id, `aud` as for
 *   client assertions (TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE), a random `jti`, `exp` a minute away
 *   (RFC 7523 §3); the handle renews its token by itself.
 * The client authenticates as configured; a public client may use this grant (RFC 7523 §2.1: client
 * authentication is optional). No request is made yet. Errors of the token request as for
 * telenorid_client_credentials_access_token(); the provider's refusal of the assertion is
 * TELENORID_E_AUTHORIZATION_ERROR (invalid_grant, RFC 7523 §3.1). Free it with
 * telenorid_client_credentials_free(). Any thread. Since 0.8.0 */
telenorid_status telenorid_client_credentials_new_jwt_bearer(telenorid_client *client, const char *scope,
                                                             const char *subject, const char *assertion,
                                                             telenorid_client_credentials **out);

/* The two header values for one request of the host's own to a resource server, with the token (asked for
 * first when none is fresh), as telenorid_auth_state_request_headers() makes them: *authorization "DPoP
 * <token>" with *dpop a proof for `method` and `url` made with the handle's DPoP key (RFC 9449 §7), or, for a
 * bearer token, "Bearer <token>" with *dpop = NULL; `resource_nonce` is the resource's DPoP-Nonce after a
 * use_dpop_nonce answer, else NULL. The URL rules and errors are those of
 * telenorid_auth_state_request_headers(). *authorization holds the token: free it with
 * telenorid_string_free(), which wipes it. Blocks on the network when it asks. Any thread. Since 0.8.0 */
telenorid_status telenorid_client_credentials_request_headers(telenorid_client_credentials *credentials,
                                                              const char *method, const char *url,
                                                              const char *resource_nonce, char **authorization,
                                                              char **dpop);

/* Reads a resource server's answer to a request whose headers came from
 * telenorid_client_credentials_request_headers(), and says in *retry whether to send that request once more
 * (1, with headers asked for again now) or to take the answer as it is (0), as
 * telenorid_auth_state_resource_answered() does for a user's token, with the same arguments: a DPoP-Nonce on
 * any answer is kept for that server's later proofs (RFC 9449 §8.2, §9); a 401 asking for the nonce it gave
 * (error="use_dpop_nonce") is a retry; a 401 refusing the token (error="invalid_token", RFC 6750 §3.1, or a
 * challenge without an error) reports that token as telenorid_client_credentials_rejected() does, so the
 * retry's headers carry a new token, and is a retry; anything else is 0. `authorization_sent` holds the token:
 * copied, and wiped when the call returns. Retry once: the retry's own 401 is the answer. No network call. Any
 * thread. Since 0.8.0 */
telenorid_status telenorid_client_credentials_resource_answered(telenorid_client_credentials *credentials,
                                                                const char *url, int32_t http_status,
                                                                const char *www_authenticate, const char *dpop_nonce,
                                                                const char *authorization_sent, int32_t *retry);

/* Keeps the token in record `key` of `store` from now on, shared by every handle of every process bound to
 * the same record: a token is asked for under the record's exclusive lock (the lock functions of
 * telenorid_store_functions, or the directory store's lock files), one process at a time, after a look at
 * the record; a fresh token another process got is used instead of asking (one request for all of them).
 * The record holds the token (and its DPoP private key) in the form of a serialized auth state without a
 * refresh token, with what it was asked for ("machine_grant": grant, subject, scope, resources): a record
 * of another grant, scope or resources is not used, and is replaced by the next token; one saved for
 * another issuer or client id is TELENORID_E_CONFIGURATION when read. Nothing is read or written until a
 * token is needed. A handle with a given assertion: TELENORID_E_INVALID_ARGUMENT. Keeps `store` alive. Any
 * thread. Since 0.8.0 */
telenorid_status telenorid_client_credentials_bind_store(telenorid_client_credentials *credentials,
                                                         telenorid_store *store, const char *key);

/* Frees the handle and the token it holds. NULL is a no-op. Since 0.7.0 */
void telenorid_client_credentials_free(telenorid_client_credentials *credentials);

/* ------------------------------------------------------------------------------------------------
 * DPoP at a resource server: checking a request's proof (RFC 9449 §4.3, §7) (Since 0.7.0)
 *
 * A client holding a DPoP-bound access token (its cnf.jkt names a key, RFC 9449 §6) sends with each request
 * `Authorization: DPoP <token>` and a `DPoP` header: a proof signed with that key for this one request.
 * telenorid_resource_server_verify_dpop() runs RFC 9449 §4.3's checks and §7.1's on the proof against the
 * method and URL the server received. A refusal is TELENORID_E_TOKEN_INVALID whose last error
 * (telenorid_error_last()) carries what the server answers in its 401 challenge
 * `WWW-Authenticate: DPoP error="...", error_description="..."`: telenorid_error_oauth_error() is
 * "invalid_dpop_proof" or "use_dpop_nonce" (RFC 9449 §7.1, §12.2; "invalid_token", RFC 6750 §3.1, for a
 * token info without cnf.jkt), and telenorid_error_oauth_description() names the rule that failed (e.g.
 * "htu is not the request's URL (RFC 9449 section 4.3 check 9)"), in printable ASCII without '"' and '\'
 * (RFC 6750 §3), ready for the header; it never quotes the token or the proof (telenorid_error_message()
 * adds what the proof said, escaped). With use_dpop_nonce
 * the server also sends `DPoP-Nonce: <telenorid_resource_server_dpop_nonce()>` (RFC 9449 §9).
 *
 * What a server must remember between requests — the jti of each proof it accepted within the window (RFC
 * 9449 §11.1) and the key its nonces are made with — is a telenorid_dpop_replay_cache. Each resource server
 * has one of its own (window 60 s, 65536 proofs); resource servers that are one server to their clients
 * (one API checking tokens of several providers, several handles of one service in a process) share one
 * with telenorid_resource_server_set_dpop_replay_cache(), so that a proof accepted by one is a replay to
 * all and a nonce handed out by one is taken by all. The cache is its own handle, not an option, because it
 * is what is shared: the window lives with it, so every server sharing it keeps each jti for exactly as
 * long as any of them accepts the proof. It keeps SHA-256 digests, never proofs or tokens. A
 * telenorid_resource_server keeps its cache alive; free them in any order. Safe to share between threads.
 * --------------------------------------------------------------------------------------------- */

/* What the resource servers checking DPoP proofs of one server remember: the proofs seen, and the nonce
 * key. Since 0.7.0 */
typedef struct telenorid_dpop_replay_cache telenorid_dpop_replay_cache;

/* More telenorid_resource_server_set() options, for DPoP proofs. Since 0.7.0 */
#define TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS 4 /* space-separated allow-list of the JWS algorithms a
                                                       DPoP proof may be signed with (RFC 9449 §4.3 check 5),
                                                       each one of RS256 RS384 RS512 PS256 PS384 PS512 ES256
                                                       ES384 ES512 EdDSA; default all of them */
#define TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE 5 /* "true": every DPoP proof must carry this server's
                                                       current nonce (RFC 9449 §9), else use_dpop_nonce.
                                                       Default "false" */

/* Creates a replay cache whose proofs are accepted for `window_s` seconds after their iat (1 to 3600) and
 * which holds at most `capacity` of them at once (1 to 4194304; about 100 bytes each). The nonces of
 * telenorid_resource_server_dpop_nonce() change every `window_s` seconds; the current one and the one
 * before are accepted. Another value: TELENORID_E_INVALID_ARGUMENT. Free it with
 * telenorid_dpop_replay_cache_free(). Any thread. Since 0.7.0 */
telenorid_status telenorid_dpop_replay_cache_new(int64_t window_s, int32_t capacity,
                                                 telenorid_dpop_replay_cache **out);

/* Frees the host's reference to a replay cache; resource servers using it keep it. NULL is a no-op.
 * Since 0.7.0 */
void telenorid_dpop_replay_cache_free(telenorid_dpop_replay_cache *cache);

/* Makes `server` check DPoP proofs with `cache` from now on (its own cache, and the proofs it saw, are
 * dropped). Any thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_set_dpop_replay_cache(telenorid_resource_server *server,
                                                                 telenorid_dpop_replay_cache *cache);

/* The nonce to send now in the `DPoP-Nonce` response header (RFC 9449 §9): 43 base64url characters made
 * from the time and the cache's random key, changing every window. Send it with a use_dpop_nonce refusal,
 * or with any answer so clients have it for their next proof. The caller frees *out with
 * telenorid_string_free(). Any thread. Since 0.7.0 */
telenorid_status telenorid_resource_server_dpop_nonce(telenorid_resource_server *server, char **out);

/* Checks the DPoP proof of one request (RFC 9449 §4.3 and §7.1). `proof` is the value of the request's
 * `DPoP` header (a request with none, or more than one, is refused by the host before: §4.3 check 1);
 * `method` and `url` are the request as the server received it, the URL as its clients address it
 * (scheme, host, port, path; query and fragment are ignored); `access_token` is the token of its
 * `Authorization: DPoP` header. The key the token is bound to comes from `jkt` (its RFC 7638 thumbprint, as
 * the host learnt it) or, when `jkt` is NULL, from `info` (TELENORID_INFO_CNF_JKT of what
 * telenorid_resource_server_verify_access_token() or _introspect() returned); one of them must be given.
 *
 * Accepted when the proof is a JWS in compact form (check 2) with jti, htm, htu, iat and ath (check 3), typ
 * dpop+jwt (check 4), alg an asymmetric algorithm of TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS (check 5),
 * a jwk header that is a public key without private members (check 7) and verifies the signature (check 6),
 * htm equal to `method` (check 8), htu equal to `url` once both are normalised (RFC 3986 §6.2.2, §6.2.3:
 * case of scheme and host, default port, percent-escapes, dot segments) (check 9), the server's current or
 * previous nonce when TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE is set (check 10), iat at most the
 * cache's window in the past and at most TELENORID_CONFIG_CLOCK_TOLERANCE_S ahead (check 11), ath the
 * base64url SHA-256 of `access_token` and the jwk's thumbprint equal to the token's (check 12), and its jti
 * not seen by the cache within the window (RFC 9449 §11.1); an accepted proof's jti is then remembered.
 * Refused: TELENORID_E_TOKEN_INVALID with the error code and rule in the last error (see the section
 * above). A cache full of live proofs: TELENORID_E_TEMPORARILY_UNAVAILABLE (answer 503; it refuses rather
 * than forget a proof that could then be replayed). A `method` that is no HTTP method, a `url` that is no
 * http(s) URL, or neither `jkt` nor `info`: TELENORID_E_INVALID_ARGUMENT. No network. Any thread.
 * Since 0.7.0 */
telenorid_status telenorid_resource_server_verify_dpop(telenorid_resource_server *server, const char *proof,
                                                       const char *method, const char *url,
                                                       const char *access_token, const char *jkt,
                                                       const telenorid_token_info *info);

/* ------------------------------------------------------------------------------------------------
 * Back-channel logout: the provider ends a session (OpenID Connect Back-Channel Logout 1.0) (Since 0.7.0)
 *
 * A provider that ends a user's session POSTs a logout_token (form field "logout_token", §2.5) to the
 * client's backchannel_logout_uri, which the host serves. The host hands the token to
 * telenorid_backchannel_logout_validate(), answers 200 when it is valid and 400 when not (§2.8), and signs
 * out locally what it names: telenorid_accounts_backchannel_logout() for an account registry,
 * telenorid_auth_state_backchannel_logout() for one auth state. Nothing is revoked at the provider (it
 * ended the session itself). telenorid_auth_state_sign_out() is the same local sign-out without a token,
 * for hosts that need one.
 *
 * A telenorid_backchannel_logout keeps its client alive, a telenorid_logout_token nothing; free them in
 * any order. Both are safe to share between threads; a logout token never changes.
 * --------------------------------------------------------------------------------------------- */

/* Validates logout tokens for one client, remembering the jti of each it accepted. Since 0.7.0 */
typedef struct telenorid_backchannel_logout telenorid_backchannel_logout;
/* A validated logout token: whom it signs out. Immutable. Since 0.7.0 */
typedef struct telenorid_logout_token telenorid_logout_token;

/* What telenorid_backchannel_logout_set() sets. Append-only. Since 0.7.0 */
typedef int32_t telenorid_backchannel_logout_option;
#define TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S 1      /* seconds after its iat a logout token is accepted,
                                                       "1" to "86400"; default "300". A jti is remembered for
                                                       as long (give or take the clock tolerance), so a token
                                                       is accepted once: its replay within the window is
                                                       refused, and after it the token is too old */

/* Creates a validator of `client`'s logout tokens: signed by its provider (the client's jwks_uri and key-set
 * cache, TELENORID_CONFIG_JWKS_MAX_AGE_S; an HS* token with the client secret) with an algorithm its ID
 * tokens may use (TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS, else the provider's advertised ones; narrowed by
 * the FAPI 2.0 profile), for its issuer and client id. Free it with telenorid_backchannel_logout_free().
 * Any thread. Since 0.7.0 */
telenorid_status telenorid_backchannel_logout_new(telenorid_client *client, telenorid_backchannel_logout **out);

/* Sets an option (see above); `value` NULL restores its default. An unknown option, or a value it does not
 * take: TELENORID_E_INVALID_ARGUMENT. Applies to the validations that start after it. Any thread.
 * Since 0.7.0 */
telenorid_status telenorid_backchannel_logout_set(telenorid_backchannel_logout *logout,
                                                  telenorid_backchannel_logout_option option, const char *value);

/* Validates `logout_token` as Back-Channel Logout 1.0 §2.6 lists: a JWS in compact form (an encrypted one is
 * refused) whose typ, when present, is logout+jwt (or application/logout+jwt, any case; the generic "JWT"
 * is taken too, another typ is not, §2.4), signed as the client's ID tokens are (never alg none), with iss
 * the configured issuer, aud containing the client id, iat neither in the future nor older than
 * TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S (give or take TELENORID_CONFIG_CLOCK_TOLERANCE_S), exp (when
 * present) not passed, a jti, an "events" object whose member
 * "http://schemas.openid.net/event/backchannel-logout" is a JSON object, a sub or a sid or both (non-empty
 * strings), and no nonce; last, a jti this handle accepted within the window is refused (§2.6 step 8). The
 * handle remembers at most 4096 jtis: past that, the one whose window ends soonest is forgotten. Any refusal
 * is TELENORID_E_TOKEN_INVALID with the last error naming the rule (encrypted; not a JWS; typ; algorithm;
 * signature; iss; aud; iat in the future or too old; exp; jti; events; neither sub nor sid; nonce; replayed);
 * only an accepted token's jti is remembered. A key set that can't be fetched is that fetch's failure.
 * Blocks on the network only to fetch the key set (or discover it). Any thread. Since 0.7.0 */
telenorid_status telenorid_backchannel_logout_validate(telenorid_backchannel_logout *logout,
                                                       const char *logout_token, telenorid_logout_token **out);

/* Frees a validator and the jtis it remembers. NULL is a no-op. Since 0.7.0 */
void telenorid_backchannel_logout_free(telenorid_backchannel_logout *logout);

/* What telenorid_logout_token_get() reads. Append-only. Since 0.7.0 */
typedef int32_t telenorid_logout_token_field;
#define TELENORID_LOGOUT_TOKEN_SUB 1  /* the end-user signed out at the provider: all their sessions end */
#define TELENORID_LOGOUT_TOKEN_SID 2  /* the provider's session that ended (the sid of the ID tokens issued
                                         in it): only that one ends */
#define TELENORID_LOGOUT_TOKEN_ISS 3  /* the issuer */
#define TELENORID_LOGOUT_TOKEN_JTI 4  /* the token's identifier */

/* One claim of a validated logout token; *out = NULL when the token has none (a token has a sub, a sid or
 * both). Another field: TELENORID_E_INVALID_ARGUMENT. The caller frees *out with telenorid_string_free().
 * Any thread. Since 0.7.0 */
telenorid_status telenorid_logout_token_get(const telenorid_logout_token *token, telenorid_logout_token_field field,
                                            char **out);

/* The token's claims as one JSON object. The caller frees *out with telenorid_string_free(). Any thread.
 * Since 0.7.0 */
telenorid_status telenorid_logout_token_json(const telenorid_logout_token *token, char **out);

/* Frees a logout token. NULL is a no-op. Since 0.7.0 */
void telenorid_logout_token_free(telenorid_logout_token *token);

/* Signs out the accounts `token` names and drops them from the registry (§2.7), revoking nothing: an
 * account of the token's issuer and sub when the token has no sid; with a sid, an account whose record
 * holds a sign-in whose ID token has that sid (and that sub, when the token has one). Each account's record
 * is signed out first, so a telenorid_auth_state bound to it (from telenorid_accounts_select(), in this
 * process or another) takes the sign-out up when it next reads the record (its next refresh,
 * telenorid_auth_state_save(), a revoke), and its change callback runs then; a host holding such a state
 * may call telenorid_auth_state_backchannel_logout() on it to sign it out at once. *out is a
 * JSON array of the ids dropped ("[]" when none was named), freed with telenorid_string_free(). A record
 * that can't be opened leaves its account as it is and returns that error (TELENORID_E_STORE_FAILED...)
 * after the others are done; *out is then not written. Blocks on the store. Any thread. Since 0.7.0 */
telenorid_status telenorid_accounts_backchannel_logout(telenorid_accounts *accounts,
                                                       const telenorid_logout_token *token, char **out);

/* Signs `state` out as telenorid_auth_state_sign_out() does when `token` names its sign-in (the ID token's
 * iss, and the token's sub and sid, each when it has one, equal to the ID token's), and says whether it did
 * in *out (1, else 0; a state signed out already, or without an ID token, is not named). Any thread.
 * Since 0.7.0 */
telenorid_status telenorid_auth_state_backchannel_logout(telenorid_auth_state *state,
                                                         const telenorid_logout_token *token, int32_t *out);

/* Signs the state out here, revoking nothing at the provider (telenorid_auth_state_revoke() revokes): the
 * tokens are wiped from memory, a refresh in flight loses to the sign-out (its tokens are neither kept nor
 * announced), and a state bound to a file or store records the sign-out there under its update lock, so
 * other processes take it up (when the record can't be written, the state signs out in memory only). The
 * change callback runs once when the state was signed in; a state signed out already stays so, and this
 * returns TELENORID_OK. Any thread. Since 0.7.0 */
telenorid_status telenorid_auth_state_sign_out(telenorid_auth_state *state);

/* ------------------------------------------------------------------------------------------------
 * Token exchange (RFC 8693) (Since 0.8.0)
 *
 * The client hands the token endpoint a token it holds, the subject token (and, for delegation, an actor
 * token), each with its type, and gets another token: for another audience or resource, a narrower scope,
 * or of another type (RFC 8693 §1). A telenorid_token_exchange is the request, filled in by its setters; a
 * telenorid_issued_token is what the provider issued. The issued token's member is called access_token
 * whatever it is (§2.2.1), so its kind is its issued_token_type, one of the identifiers below (§3) or the
 * provider's own URI. Tokens are secrets: read into memory the library wipes, never logged.
 *
 * A telenorid_token_exchange holds no other handle, a telenorid_issued_token keeps its client alive; free
 * them in any order. Both are safe to share between threads; an issued token's members never change.
 * --------------------------------------------------------------------------------------------- */

/* The token type identifiers of RFC 8693 §3, for subject_token_type, actor_token_type and
 * requested_token_type, and as an issued token's type. Since 0.8.0 */
#define TELENORID_TOKEN_TYPE_ACCESS_TOKEN  "urn:ietf:params:oauth:token-type:access_token"
#define TELENORID_TOKEN_TYPE_REFRESH_TOKEN "urn:ietf:params:oauth:token-type:refresh_token"
#define TELENORID_TOKEN_TYPE_ID_TOKEN      "urn:ietf:params:oauth:token-type:id_token"
#define TELENORID_TOKEN_TYPE_SAML1         "urn:ietf:params:oauth:token-type:saml1"
#define TELENORID_TOKEN_TYPE_SAML2         "urn:ietf:params:oauth:token-type:saml2"
#define TELENORID_TOKEN_TYPE_JWT           "urn:ietf:params:oauth:token-type:jwt"

/* A token exchange request (RFC 8693 §2.1). Since 0.8.0 */
typedef struct telenorid_token_exchange telenorid_token_exchange;
/* What a token exchange issued (RFC 8693 §2.2.1). Since 0.8.0 */
typedef struct telenorid_issued_token telenorid_issued_token;

/* A request to exchange `subject_token`, a token of type `subject_token_type` (a URI: one of
 * TELENORID_TOKEN_TYPE_* or the provider's own), both REQUIRED (§2.1). An empty token or a type that is not
 * a URI: TELENORID_E_INVALID_ARGUMENT. The token is copied into memory the library wipes. Free it with
 * telenorid_token_exchange_free(). Any thread. Since 0.8.0 */
telenorid_status telenorid_token_exchange_new(const char *subject_token, const char *subject_token_type,
                                              telenorid_token_exchange **out);

/* Sets the actor token (§2.1: the party acting for the subject, for delegation) and its type: both or
 * neither (NULL for both removes the actor; one NULL without the other, an empty token or a type that is not
 * a URI: TELENORID_E_INVALID_ARGUMENT). Any thread. Since 0.8.0 */
telenorid_status telenorid_token_exchange_set_actor(telenorid_token_exchange *exchange, const char *actor_token,
                                                    const char *actor_token_type);

/* Adds a `resource` (§2.1, RFC 8707): an absolute URI without a fragment where the token will be used. Once
 * per resource; not a URI, a fragment, or the same URI twice: TELENORID_E_INVALID_ARGUMENT. Any thread.
 * Since 0.8.0 */
telenorid_status telenorid_token_exchange_add_resource(telenorid_token_exchange *exchange, const char *uri);

/* Adds an `audience` (§2.1): the logical name of a service the token is for, as the provider knows it. Once
 * per audience; empty or the same twice: TELENORID_E_INVALID_ARGUMENT. Any thread. Since 0.8.0 */
telenorid_status telenorid_token_exchange_add_audience(telenorid_token_exchange *exchange, const char *audience);

/* Sets the `scope` asked for (§2.1, space-separated); NULL sends none (the provider decides), empty:
 * TELENORID_E_INVALID_ARGUMENT. Any thread. Since 0.8.0 */
telenorid_status telenorid_token_exchange_set_scope(telenorid_token_exchange *exchange, const char *scope);

/* Sets `requested_token_type` (§2.1), a token type URI; NULL sends none (the provider decides), not a URI:
 * TELENORID_E_INVALID_ARGUMENT. Any thread. Since 0.8.0 */
telenorid_status telenorid_token_exchange_set_requested_token_type(telenorid_token_exchange *exchange,
                                                                   const char *token_type);

/* Frees a request and wipes its tokens. NULL is a no-op. Since 0.8.0 */
void telenorid_token_exchange_free(telenorid_token_exchange *exchange);

/* Exchanges the token (§2.1): a POST of grant_type urn:ietf:params:oauth:grant-type:token-exchange to the
 * token endpoint with the request's parameters and the client's authentication as configured, with a DPoP
 * proof when DPoP is in use (RFC 9449 §5: an issued access token is then DPoP-bound to the key that asked,
 * which telenorid_issued_token_auth_state() keeps). The provider's refusal (§2.2.2) is
 * TELENORID_E_AUTHORIZATION_ERROR with its `error` (invalid_request, invalid_target, invalid_scope,
 * unsupported_grant_type...) or TELENORID_E_CLIENT_REJECTED (invalid_client, unauthorized_client); an
 * answer without access_token, issued_token_type or token_type (§2.2.1 requires them), with one that is not
 * a non-empty string, an issued_token_type that is not a URI, or a Bearer access token answered to a DPoP
 * proof (unless TELENORID_CONFIG_ALLOW_BEARER_DOWNGRADE): TELENORID_E_INVALID_RESPONSE. Free *out with
 * telenorid_issued_token_free(). Blocks on the network; telenorid_client_cancel() ends it. Any thread.
 * Since 0.8.0 */
telenorid_status telenorid_client_exchange_token(telenorid_client *client, const telenorid_token_exchange *exchange,
                                                 telenorid_issued_token **out);

/* What telenorid_issued_token_get() reads: members of the token exchange response (§2.2.1). Append-only.
 * Since 0.8.0 */
typedef int32_t telenorid_issued_token_field;
#define TELENORID_ISSUED_TOKEN             1  /* the issued token (the response's access_token member), a secret */
#define TELENORID_ISSUED_TOKEN_TYPE        2  /* issued_token_type: what the token is (a URI, see
                                                 TELENORID_TOKEN_TYPE_*) */
#define TELENORID_ISSUED_ACCESS_TOKEN_TYPE 3  /* token_type: how an access token is used ("Bearer", "DPoP"),
                                                 "N_A" for a token that is not an access token */
#define TELENORID_ISSUED_SCOPE             4  /* the scope of the issued token, when the provider said */
#define TELENORID_ISSUED_REFRESH_TOKEN     5  /* a refresh token that came with it, a secret */

/* One member; *out = NULL when absent. An unknown field: TELENORID_E_INVALID_ARGUMENT. The caller frees *out
 * with telenorid_string_free(). Since 0.8.0 */
telenorid_status telenorid_issued_token_get(const telenorid_issued_token *token, telenorid_issued_token_field field,
                                            char **out);

/* When the issued token expires: the response's expires_in from the moment it came, in Unix seconds of the
 * client's clock; 0 when the provider did not say. Since 0.8.0 */
telenorid_status telenorid_issued_token_expires_at(const telenorid_issued_token *token, int64_t *out);

/* The issued token as a new auth state of the exchanging client, refreshed through it like a sign-in's: only
 * for an access token (issued_token_type TELENORID_TOKEN_TYPE_ACCESS_TOKEN, token_type Bearer or DPoP) that
 * came with a refresh token; any other: TELENORID_E_INVALID_ARGUMENT. The state has no ID token; its
 * refreshes ask for the request's resources again (RFC 8707 §2.2). Once per issued token: a second call is
 * TELENORID_E_CONSUMED (two states would share one refresh token, which a rotating provider honours once). Free it with telenorid_auth_state_free(). Any thread. Since 0.8.0 */
telenorid_status telenorid_issued_token_auth_state(const telenorid_issued_token *token, telenorid_auth_state **out);

/* Frees an issued token and wipes its tokens. NULL is a no-op. Since 0.8.0 */
void telenorid_issued_token_free(telenorid_issued_token *token);

/* ------------------------------------------------------------------------------------------------
 * Native SSO: one sign-in for a vendor's apps (OpenID Connect Native SSO for Mobile Apps 1.0) (Since 0.8.0)
 *
 * The first app signs in with "device_sso" in its scope (§3.1, e.g. TELENORID_CONFIG_SCOPE
 * "openid device_sso"); the provider then sends a device secret with the tokens (§3.4), which its auth state
 * keeps (TELENORID_TOKEN_DEVICE_SECRET: a secret, never logged, wiped with the state) and whose hash the ID
 * token carries (ds_hash). The app puts the ID token (TELENORID_TOKEN_ID_TOKEN) and the device secret where
 * the vendor's other apps can read them: the platform's shared storage (a keychain access group, Android's
 * account manager), which is the host's. A second app hands both to telenorid_client_native_sso(), a token
 * exchange (§4, RFC 8693) that signs the user in for it without a browser.
 * --------------------------------------------------------------------------------------------- */

/* The token type of the device secret (Native SSO §4.1), the actor token of its exchange. Since 0.8.0 */
#define TELENORID_TOKEN_TYPE_DEVICE_SECRET "urn:openid:params:token-type:device-secret"

/* Signs the user of `id_token` in for `client` from another app's sign-in (Native SSO §4.2): `id_token` and
 * `device_secret` are what that app's auth state holds (TELENORID_TOKEN_ID_TOKEN, _DEVICE_SECRET). First,
 * with no request, `id_token` must be a JWS whose iss is the client's issuer and whose ds_hash is that of
 * `device_secret` (§3.4), else TELENORID_E_INVALID_ARGUMENT (a mismatched pair never leaves the device). Then a
 * token exchange: the ID token as subject token (TELENORID_TOKEN_TYPE_ID_TOKEN), the device secret as actor
 * token (TELENORID_TOKEN_TYPE_DEVICE_SECRET), the issuer as audience, `scope` (NULL: the configuration's; it
 * must include openid, else TELENORID_E_INVALID_ARGUMENT), client_id, the client's authentication as
 * configured, and a DPoP proof when DPoP is in use. The provider's refusal is TELENORID_E_AUTHORIZATION_ERROR
 * (invalid_grant, invalid_request...) or TELENORID_E_CLIENT_REJECTED. The answer (§4.4) must be an access
 * token (issued_token_type TELENORID_TOKEN_TYPE_ACCESS_TOKEN) with an ID token, else
 * TELENORID_E_INVALID_RESPONSE; the ID token is validated as a sign-in's (signature, iss, aud, azp, times,
 * at_hash; there is no nonce), its ds_hash must be that of the device secret in force (a new one the answer
 * brings, else `device_secret`) and its sub the given ID token's, else TELENORID_E_TOKEN_INVALID. *out is the
 * new auth state, holding that device secret; free it with telenorid_auth_state_free(). Blocks on the
 * network; telenorid_client_cancel() ends it. Any thread. Since 0.8.0 */
telenorid_status telenorid_client_native_sso(telenorid_client *client, const char *id_token,
                                             const char *device_secret, const char *scope,
                                             telenorid_auth_state **out);

/* ------------------------------------------------------------------------------------------------
 * Old names (aliases until 1.0)
 *
 * The names of 0.4 and before, deprecated and removed at 1.0: use the names above. Each type is the same
 * type as its new name, and each function the same symbol, at the same address, as the one it names after
 * "=" (the library exports both), so code written for the old names compiles and binaries linked against
 * 0.4 load and behave unchanged.
 * --------------------------------------------------------------------------------------------- */

typedef struct telenorid_callback telenorid_callback;                /* = telenorid_authorization_callback */
typedef struct telenorid_line_auth telenorid_line_auth;              /* = telenorid_line_authenticator */
typedef struct telenorid_loopback telenorid_loopback;                /* = telenorid_loopback_listener */
typedef telenorid_host_key_signer telenorid_sign_callback;           /* = telenorid_host_key_signer */

/* = telenorid_authorization_callback_code, _parameter, _free */
telenorid_status telenorid_callback_code(const telenorid_callback *callback, char **out);
telenorid_status telenorid_callback_parameter(const telenorid_callback *callback, const char *name, char **out);
void telenorid_callback_free(telenorid_callback *callback);

/* = telenorid_line_authenticator_new, _set_socket_hook, _run, _valid_for, _apply, _free */
telenorid_status telenorid_line_auth_new(const telenorid_config *config, telenorid_line_auth **out);
telenorid_status telenorid_line_auth_set_socket_hook(telenorid_line_auth *line_auth, telenorid_socket_hook hook,
                                                     void *user_data);
telenorid_status telenorid_line_auth_run(telenorid_line_auth *line_auth);
telenorid_status telenorid_line_auth_valid_for(const telenorid_line_auth *line_auth, int64_t *out);
telenorid_status telenorid_line_auth_apply(telenorid_line_auth *line_auth, telenorid_auth_request *request);
void telenorid_line_auth_free(telenorid_line_auth *line_auth);

/* = telenorid_loopback_listener_new, _redirect_uri, _wait, _free, _cancel, _expect_state */
telenorid_status telenorid_loopback_new(uint16_t port, const char *path, telenorid_loopback **out);
telenorid_status telenorid_loopback_redirect_uri(const telenorid_loopback *listener, char **out);
telenorid_status telenorid_loopback_wait(telenorid_loopback *listener, int32_t timeout_ms, char **out);
void telenorid_loopback_free(telenorid_loopback *listener);
telenorid_status telenorid_loopback_cancel(telenorid_loopback *listener);
telenorid_status telenorid_loopback_expect_state(telenorid_loopback *listener, const char *state);

#ifdef __cplusplus
}
#endif

#endif /* TELENORID_H */
