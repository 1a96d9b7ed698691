package no.telenor.id;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable client configuration ({@code telenorid_config}): issuer, client id, redirect URI, endpoints,
 * timeouts. Safe to share between threads. Made with {@link #builder()} or {@link #fromJson}.
 *
 * <pre>{@code
 * try (Config config = Config.builder()
 *         .issuer("https://id.telenor.no")
 *         .clientId("my-app")
 *         .redirectUri("my-app://authcallback/")
 *         .scope("openid profile")
 *         .build()) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Objects made from a configuration (requests, pending authorizations) keep it alive, so it may be
 * closed before them.
 */
public final class Config extends NativeObject {
    /** The settings ({@code TELENORID_CONFIG_*}); {@link #settingName()} is the name used in JSON. */
    public enum Key {
        ISSUER(1),
        CLIENT_ID(2),
        REDIRECT_URI(3),
        SCOPE(4),
        AUTHORIZATION_ENDPOINT(5),
        TOKEN_ENDPOINT(6),
        USERINFO_ENDPOINT(7),
        REVOCATION_ENDPOINT(8),
        END_SESSION_ENDPOINT(9),
        JWKS_URI(10),
        ENVIRONMENT(11),
        ALLOW_PLAIN_PKCE(12),
        CLIENT_SECRET(13),
        TOKEN_ENDPOINT_AUTH_METHOD(14),
        CLIENT_PRIVATE_KEY(15),
        CA_FILE(16),
        CA_PATH(17),
        PROXY(18),
        CONNECT_TIMEOUT_MS(19),
        TIMEOUT_MS(20),
        MAX_RESPONSE_BYTES(21),
        CLOCK_TOLERANCE_S(22),
        CLOCK_OFFSET_S(23),
        TRUSTED_AUDIENCES(24),
        ID_TOKEN_SIGNING_ALGS(25),
        REFRESH_MARGIN_S(26),
        /** The https base URL of Aloha, for {@link LineAuthenticator}. */
        ALOHA_URL(27),
        JWKS_MAX_AGE_S(28),
        CLIENT_ASSERTION_AUDIENCE(29),
        /** RFC 9126's endpoint, when discovery does not give it. */
        PUSHED_AUTHORIZATION_REQUEST_ENDPOINT(30),
        /** {@code "true"}: {@link Client#buildAuthorization} pushes every request (RFC 9126). */
        PUSH_AUTHORIZATION_REQUESTS(31),
        /**
         * {@code "ES256"}, {@code "EdDSA"} or {@code "PS256"}, or several by preference ({@code "EdDSA ES256"}):
         * sender-constrained tokens (RFC 9449), with the first algorithm the provider lists.
         */
        DPOP_SIGNING_ALG(32),
        /** {@code "true"}: {@code dpop_jkt} on the authorization request (RFC 9449 §10). */
        DPOP_BIND_AUTHORIZATION_CODE(33),
        /** {@code "true"}: accept a Bearer token in answer to a DPoP proof. */
        ALLOW_BEARER_DOWNGRADE(34),
        /** {@code "true"}: signed request objects (RFC 9101). */
        SIGN_AUTHORIZATION_REQUESTS(35),
        /** {@code "fapi2"}: the FAPI 2.0 Security Profile. */
        SECURITY_PROFILE(36),
        /** The {@code kid} the provider registered the client's key under; default the JWK's, else its thumbprint. */
        CLIENT_KEY_ID(37),
        /** The device authorization endpoint (RFC 8628 §3.1); default: discovered. */
        DEVICE_AUTHORIZATION_ENDPOINT(38),
        /** Where backchannel authentication requests go (OpenID CIBA Core 1.0); default discovered. */
        BACKCHANNEL_AUTHENTICATION_ENDPOINT(39),
        /** {@code "poll"} (default) or {@code "ping"}: how a backchannel authentication's result is learnt. */
        BACKCHANNEL_TOKEN_DELIVERY_MODE(40);

        private final int code;

        Key(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }

        /** The setting's name in JSON and in {@link Builder#setAll} / {@link Config#toMap()}: {@code "client_id"}. */
        public @NonNull String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The key of a {@link #settingName()}. */
        public static @NonNull Key forSettingName(@NonNull String name) {
            for (Key key : values()) {
                if (key.settingName().equals(name)) {
                    return key;
                }
            }
            throw new IllegalArgumentException("no configuration setting is named \"" + name + "\"");
        }
    }

    Config(long handle) {
        super(handle, Native::configFree);
    }

    /** A new, empty builder. */
    public static @NonNull Builder builder() {
        return new Builder();
    }

    /**
     * A configuration from a JSON document, either one object of settings or
     * {@code {"default_environment": ..., "environments": {"staging": {...}, ...}}}; this picks the
     * default environment. Unknown members are refused.
     *
     * @throws MalformedException when the JSON does not parse
     * @throws ConfigurationException when a setting is missing, unknown or invalid
     * @throws InsecureException when an endpoint is plain http on a non-loopback host
     */
    public static @NonNull Config fromJson(@NonNull String json) {
        return fromJson(json, null);
    }

    /** As {@link #fromJson(String)}, picking {@code environment} (null: the document's default). */
    public static @NonNull Config fromJson(@NonNull String json, @Nullable String environment) {
        byte[] jsonBytes = Utf8.encode(Objects.requireNonNull(json, "json"));
        return new Config(Native.configFromJson(jsonBytes, Utf8.encode(environment)));
    }

    /** The value of a setting, or null when it is not set. */
    public @Nullable String get(@NonNull Key key) {
        Objects.requireNonNull(key, "key");
        return call(h -> Utf8.decode(Native.configGet(h, key.code)));
    }

    /**
     * Every setting that is set, by {@link Key#settingName()}, in key order: for an Android {@code Bundle},
     * say. It includes the client secret or private key if the configuration has one.
     */
    public @NonNull Map<String, String> toMap() {
        return call(h -> {
            Map<String, String> map = new LinkedHashMap<>();
            for (Key key : Key.values()) {
                String value = Utf8.decode(Native.configGet(h, key.code));
                if (value != null) {
                    map.put(key.settingName(), value);
                }
            }
            return map;
        });
    }

    /** A new authorization request for this configuration; see {@link AuthorizationRequest}. */
    public @NonNull AuthorizationRequest newAuthorizationRequest() {
        return new AuthorizationRequest(this);
    }

    /**
     * Collects settings and builds configurations from them ({@code telenorid_config_builder}).
     *
     * <p>The settings are kept here and handed to the C builder in {@link #build()}, which creates the
     * native builder, sets each one, builds and frees the builder in one call; so a Builder holds no native
     * resource and needs no closing, and a builder can build many configurations. Values are checked when
     * built. Not thread-safe (like the C builder).
     */
    public static final class Builder extends TransportSettings<Builder> {
        private final EnumMap<Key, byte[]> settings = new EnumMap<>(Key.class);

        Builder() {
        }

        /** Sets one setting; null clears it. */
        @Override
        public @NonNull Builder set(@NonNull Key key, @Nullable String value) {
            Objects.requireNonNull(key, "key");
            if (value == null) {
                settings.remove(key);
            } else {
                settings.put(key, Utf8.encode(value));
            }
            return this;
        }

        /**
         * Sets every entry of {@code settings}, by {@link Key#settingName()} ({@code "issuer"},
         * {@code "client_id"}, ...): from an Android {@code Bundle} or resources, say.
         *
         * @throws IllegalArgumentException for a name that is not a setting (nothing is set then)
         */
        public @NonNull Builder setAll(@NonNull Map<String, String> settings) {
            Map<Key, String> keyed = new LinkedHashMap<>();
            for (Map.Entry<String, String> entry : settings.entrySet()) {
                keyed.put(Key.forSettingName(entry.getKey()), entry.getValue());
            }
            for (Map.Entry<Key, String> entry : keyed.entrySet()) {
                set(entry.getKey(), entry.getValue());
            }
            return this;
        }

        /** The issuer: an https URL (http only on loopback). Required. */
        public @NonNull Builder issuer(@Nullable String issuer) {
            return set(Key.ISSUER, issuer);
        }

        /** The client id. Required. */
        public @NonNull Builder clientId(@Nullable String clientId) {
            return set(Key.CLIENT_ID, clientId);
        }

        /**
         * The redirect URI, used exactly as given. Required by the code flow (building or restoring an
         * authorization request), not by ID token verification or the grants without a browser.
         */
        public @NonNull Builder redirectUri(@Nullable String redirectUri) {
            return set(Key.REDIRECT_URI, redirectUri);
        }

        /** Space-separated scopes; default {@code "openid"}. */
        public @NonNull Builder scope(@Nullable String scope) {
            return set(Key.SCOPE, scope);
        }

        /** The scopes, joined with spaces. */
        public @NonNull Builder scopes(@NonNull String... scopes) {
            StringBuilder joined = new StringBuilder();
            for (int i = 0; i < scopes.length; i++) {
                joined.append(i == 0 ? "" : " ").append(Objects.requireNonNull(scopes[i], "scope"));
            }
            return set(Key.SCOPE, joined.toString());
        }

        public @NonNull Builder authorizationEndpoint(@Nullable String url) {
            return set(Key.AUTHORIZATION_ENDPOINT, url);
        }

        public @NonNull Builder tokenEndpoint(@Nullable String url) {
            return set(Key.TOKEN_ENDPOINT, url);
        }

        public @NonNull Builder userinfoEndpoint(@Nullable String url) {
            return set(Key.USERINFO_ENDPOINT, url);
        }

        public @NonNull Builder revocationEndpoint(@Nullable String url) {
            return set(Key.REVOCATION_ENDPOINT, url);
        }

        public @NonNull Builder endSessionEndpoint(@Nullable String url) {
            return set(Key.END_SESSION_ENDPOINT, url);
        }

        public @NonNull Builder jwksUri(@Nullable String url) {
            return set(Key.JWKS_URI, url);
        }

        /** A name such as {@code "staging"}; informational. */
        public @NonNull Builder environment(@Nullable String environment) {
            return set(Key.ENVIRONMENT, environment);
        }

        /** Whether plain PKCE may be chosen; default false. */
        public @NonNull Builder allowPlainPkce(boolean allow) {
            return set(Key.ALLOW_PLAIN_PKCE, Boolean.toString(allow));
        }

        /** For confidential clients only; never put a secret in an app. */
        public @NonNull Builder clientSecret(@Nullable String secret) {
            return set(Key.CLIENT_SECRET, secret);
        }

        /** none, client_secret_basic, client_secret_post, client_secret_jwt or private_key_jwt. */
        public @NonNull Builder tokenEndpointAuthMethod(@Nullable String method) {
            return set(Key.TOKEN_ENDPOINT_AUTH_METHOD, method);
        }

        /** A PEM or JWK private key for private_key_jwt. */
        public @NonNull Builder clientPrivateKey(@Nullable String key) {
            return set(Key.CLIENT_PRIVATE_KEY, key);
        }

        /** The https base URL of Aloha (TelenorID+ line authentication): see {@link LineAuthenticator}. */
        public @NonNull Builder alohaUrl(@Nullable String url) {
            return set(Key.ALOHA_URL, url);
        }

        /**
         * The aud of a client assertion: {@code "issuer"} (default), {@code "token_endpoint"}, or
         * {@code "endpoint"}, the URL the assertion is sent to.
         */
        public @NonNull Builder clientAssertionAudience(@Nullable String audience) {
            return set(Key.CLIENT_ASSERTION_AUDIENCE, audience);
        }

        /** Where authorization requests are pushed (RFC 9126 §5), when discovery does not say. */
        public @NonNull Builder pushedAuthorizationRequestEndpoint(@Nullable String url) {
            return set(Key.PUSHED_AUTHORIZATION_REQUEST_ENDPOINT, url);
        }

        /**
         * Whether {@link Client#buildAuthorization} pushes every request (RFC 9126), also to a provider that
         * does not require it; default false (push only when the provider's metadata requires it).
         */
        public @NonNull Builder pushAuthorizationRequests(boolean push) {
            return set(Key.PUSH_AUTHORIZATION_REQUESTS, Boolean.toString(push));
        }

        /**
         * Makes each sign-in's tokens sender-constrained with a DPoP key (RFC 9449) of this algorithm:
         * {@code "ES256"}, {@code "EdDSA"} or {@code "PS256"}; null for none.
         */
        public @NonNull Builder dpopSigningAlgorithm(@Nullable String algorithm) {
            return set(Key.DPOP_SIGNING_ALG, algorithm);
        }

        /** Whether the authorization request carries {@code dpop_jkt} (RFC 9449 §10); default false. */
        public @NonNull Builder dpopBindAuthorizationCode(boolean bind) {
            return set(Key.DPOP_BIND_AUTHORIZATION_CODE, Boolean.toString(bind));
        }

        /** Whether a Bearer token answering a DPoP proof is accepted; default false (refused). */
        public @NonNull Builder allowBearerDowngrade(boolean allow) {
            return set(Key.ALLOW_BEARER_DOWNGRADE, Boolean.toString(allow));
        }

        /** Whether the authorization request goes as a signed request object (RFC 9101); default false. */
        public @NonNull Builder signAuthorizationRequests(boolean sign) {
            return set(Key.SIGN_AUTHORIZATION_REQUESTS, Boolean.toString(sign));
        }

        /** {@code "fapi2"} to follow and enforce the FAPI 2.0 Security Profile; null for none. */
        public @NonNull Builder securityProfile(@Nullable String profile) {
            return set(Key.SECURITY_PROFILE, profile);
        }

        /**
         * The {@code kid} the provider registered the client's private key under, sent with what it signs;
         * null for the JWK's own {@code kid}, else the key's RFC 7638 thumbprint.
         */
        public @NonNull Builder clientKeyId(@Nullable String keyId) {
            return set(Key.CLIENT_KEY_ID, keyId);
        }

        /** The device authorization endpoint (RFC 8628 §3.1); null for the discovered one. */
        public @NonNull Builder deviceAuthorizationEndpoint(@Nullable String url) {
            return set(Key.DEVICE_AUTHORIZATION_ENDPOINT, url);
        }

        /** The backchannel authentication endpoint (OpenID CIBA Core 1.0 §4); null for the discovered one. */
        public @NonNull Builder backchannelAuthenticationEndpoint(@Nullable String url) {
            return set(Key.BACKCHANNEL_AUTHENTICATION_ENDPOINT, url);
        }

        /** {@code "poll"} (default) or {@code "ping"}, as the client is registered (CIBA Core §5). */
        public @NonNull Builder backchannelTokenDeliveryMode(@Nullable String mode) {
            return set(Key.BACKCHANNEL_TOKEN_DELIVERY_MODE, mode);
        }

        /**
         * Checks the settings and creates a configuration. The builder stays usable.
         *
         * @throws ConfigurationException when a required setting is missing or a value is not valid
         * @throws InsecureException when an endpoint is plain http on a non-loopback host
         * @throws IllegalArgumentException when a value contains a NUL character
         */
        public @NonNull Config build() {
            int[] keys = new int[settings.size()];
            byte[][] values = new byte[settings.size()][];
            int i = 0;
            for (Map.Entry<Key, byte[]> entry : settings.entrySet()) {
                keys[i] = entry.getKey().code;
                values[i] = entry.getValue();
                i++;
            }
            return new Config(Native.configBuild(keys, values));
        }
    }
}
