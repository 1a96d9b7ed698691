package no.telenor.id;

import java.util.Map;
import java.util.Objects;

/**
 * An authorization request being put together ({@code telenorid_auth_request}); {@link #build()} draws a
 * fresh state, nonce and PKCE verifier and gives the {@link PendingAuthorization} with the URL to open.
 *
 * <pre>{@code
 * try (AuthorizationRequest request = new AuthorizationRequest(config)
 *         .prompt("login")
 *         .loginHint("+4799999999")
 *         .addClaim(ClaimTarget.ID_TOKEN, "phone_number", true, "To sign you in")) {
 *     PendingAuthorization pending = request.build();
 *     // open pending.url() in a Custom Tab; persist pending.serialize()
 * }
 * }</pre>
 *
 * <p>Mutable. The C request allows one thread at a time; this class serialises its calls, so it may be
 * shared, though there is rarely a reason to. Keeps its {@link Config} alive. Setters return
 * {@code this} for chaining.
 */
public final class AuthorizationRequest extends NativeObject {
    /** The parameters the library knows ({@code TELENORID_AUTH_*}); set them with {@link #set}. */
    public enum Parameter {
        /** Overrides the configuration's scope for this request. */
        SCOPE(1),
        /** e.g. {@code "login"}, {@code "consent"}, {@code "none"}. */
        PROMPT(2),
        /** The user's identifier at the provider, as a hint (OIDC Core 3.1.2.1). */
        LOGIN_HINT(3),
        /** Space-separated BCP 47 tags. */
        UI_LOCALES(4),
        /** Space-separated. */
        ACR_VALUES(5),
        /** Seconds, decimal digits. */
        MAX_AGE(6),
        /** TelenorID+ line authentication session id. */
        ALOHA_TOKEN(7),
        /** The top-level {@code purpose} of the claims request. */
        CLAIMS_PURPOSE(8),
        /** {@code "query"} or {@code "fragment"}. */
        RESPONSE_MODE(9),
        /** CIBA: a token naming the user. */
        LOGIN_HINT_TOKEN(10),
        /** An ID token naming the user. */
        ID_TOKEN_HINT(11),
        /** CIBA: shown on both devices. */
        BINDING_MESSAGE(12),
        /** CIBA: the user's secret code at the provider. */
        USER_CODE(13),
        /** CIBA: seconds, decimal digits. */
        REQUESTED_EXPIRY(14);

        private final int code;

        Parameter(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    /** Where a requested claim should be returned (OIDC Core 5.5), {@code TELENORID_CLAIMS_*}. */
    public enum ClaimTarget {
        /** In the ID token. */
        ID_TOKEN(1),
        /** From the userinfo endpoint. */
        USERINFO(2);

        private final int code;

        ClaimTarget(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    private final Config config;

    /** Starts a request for {@code config}. */
    public AuthorizationRequest(@NonNull Config config) {
        super(newHandle(config), Native::authRequestFree);
        this.config = config;
    }

    private static long newHandle(Config config) {
        return Objects.requireNonNull(config, "config").call(Native::authRequestNew);
    }

    /** The configuration this request was made for. */
    public @NonNull Config config() {
        return config;
    }

    /**
     * Sets a known parameter; null clears it.
     *
     * @throws InvalidArgumentException for a MAX_AGE that is not decimal digits or a RESPONSE_MODE other
     *         than "query" or "fragment"
     */
    public @NonNull AuthorizationRequest set(@NonNull Parameter parameter, @Nullable String value) {
        Objects.requireNonNull(parameter, "parameter");
        byte[] bytes = Utf8.encode(value);
        runExclusive(h -> Native.authRequestSet(h, parameter.code, bytes));
        return this;
    }

    /** Sets {@link Parameter#SCOPE}: space-separated; null clears it. */
    public @NonNull AuthorizationRequest scope(@Nullable String scope) {
        return set(Parameter.SCOPE, scope);
    }

    /** Sets {@link Parameter#PROMPT}; null clears it. */
    public @NonNull AuthorizationRequest prompt(@Nullable String prompt) {
        return set(Parameter.PROMPT, prompt);
    }

    /** Sets {@link Parameter#LOGIN_HINT}; null clears it. */
    public @NonNull AuthorizationRequest loginHint(@Nullable String loginHint) {
        return set(Parameter.LOGIN_HINT, loginHint);
    }

    /** Sets {@link Parameter#UI_LOCALES}; null clears it. */
    public @NonNull AuthorizationRequest uiLocales(@Nullable String uiLocales) {
        return set(Parameter.UI_LOCALES, uiLocales);
    }

    /** Sets {@link Parameter#ACR_VALUES}; null clears it. */
    public @NonNull AuthorizationRequest acrValues(@Nullable String acrValues) {
        return set(Parameter.ACR_VALUES, acrValues);
    }

    /** {@code max_age} in seconds. */
    public @NonNull AuthorizationRequest maxAge(long seconds) {
        return set(Parameter.MAX_AGE, Long.toString(seconds));
    }

    /** Sets {@link Parameter#ALOHA_TOKEN}; null clears it. */
    public @NonNull AuthorizationRequest alohaToken(@Nullable String alohaToken) {
        return set(Parameter.ALOHA_TOKEN, alohaToken);
    }

    /** Sets {@link Parameter#CLAIMS_PURPOSE}; null clears it. */
    public @NonNull AuthorizationRequest claimsPurpose(@Nullable String purpose) {
        return set(Parameter.CLAIMS_PURPOSE, purpose);
    }

    /** {@code "query"} or {@code "fragment"}. */
    public @NonNull AuthorizationRequest responseMode(@Nullable String responseMode) {
        return set(Parameter.RESPONSE_MODE, responseMode);
    }

    /** A token naming the user, from the provider's ecosystem (backchannel authentication only). */
    public @NonNull AuthorizationRequest loginHintToken(@Nullable String token) {
        return set(Parameter.LOGIN_HINT_TOKEN, token);
    }

    /** An ID token naming the user (also sent in authorization URLs). */
    public @NonNull AuthorizationRequest idTokenHint(@Nullable String idToken) {
        return set(Parameter.ID_TOKEN_HINT, idToken);
    }

    /** A short message shown on both devices to tie them together (backchannel authentication only). */
    public @NonNull AuthorizationRequest bindingMessage(@Nullable String message) {
        return set(Parameter.BINDING_MESSAGE, message);
    }

    /** The user's secret code at the provider (backchannel authentication only); the library wipes it. */
    public @NonNull AuthorizationRequest userCode(@Nullable String code) {
        return set(Parameter.USER_CODE, code);
    }

    /** How long the provider may take, in seconds (positive; backchannel authentication only). */
    public @NonNull AuthorizationRequest requestedExpiry(long seconds) {
        return set(Parameter.REQUESTED_EXPIRY, Long.toString(seconds));
    }

    /**
     * Adds an extra authorization parameter, sent as given (percent-encoded).
     *
     * @throws ParameterConflictException for a name the library owns (response_type, client_id, state,
     *         claims, prompt, ...: use the typed setter) or one already added
     */
    public @NonNull AuthorizationRequest addParameter(@NonNull String name, @NonNull String value) {
        byte[] nameBytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        byte[] valueBytes = Utf8.encode(Objects.requireNonNull(value, "value"));
        runExclusive(h -> Native.authRequestAddParameter(h, nameBytes, valueBytes));
        return this;
    }

    /**
     * Adds each entry of {@code parameters} as {@link #addParameter} does, in the map's iteration order:
     * extra parameters from an Android {@code Bundle} or intent, say. Not atomic: when one fails, those
     * before it stay added.
     */
    public @NonNull AuthorizationRequest addParameters(@NonNull Map<String, String> parameters) {
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            addParameter(entry.getKey(), entry.getValue());
        }
        return this;
    }

    /** Requests a claim without further detail: {@code "name": null}. */
    public @NonNull AuthorizationRequest addClaim(@NonNull ClaimTarget target, @NonNull String name) {
        return addClaim(target, name, null, null, null, null);
    }

    /** Requests a claim with {@code essential} and {@code purpose} (either may be null: not sent). */
    public @NonNull AuthorizationRequest addClaim(@NonNull ClaimTarget target, @NonNull String name,
            @Nullable Boolean essential, @Nullable String purpose) {
        return addClaim(target, name, essential, purpose, null, null);
    }

    /**
     * Requests one claim in the OIDC {@code claims} parameter.
     *
     * @param essential true, false or null (unspecified)
     * @param purpose why the claim is asked for, or null
     * @param valueJson a JSON value the claim should have, or null
     * @param valuesJson a JSON array of values, or null
     * @throws ParameterConflictException when the claim was already requested for the target
     * @throws MalformedException when valueJson or valuesJson is not JSON of that kind
     */
    public @NonNull AuthorizationRequest addClaim(@NonNull ClaimTarget target, @NonNull String name,
            @Nullable Boolean essential, @Nullable String purpose,
            @Nullable String valueJson, @Nullable String valuesJson) {
        Objects.requireNonNull(target, "target");
        byte[] nameBytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        int essentialCode = essential == null ? -1 : essential ? 1 : 0;
        byte[] purposeBytes = Utf8.encode(purpose);
        byte[] valueBytes = Utf8.encode(valueJson);
        byte[] valuesBytes = Utf8.encode(valuesJson);
        runExclusive(h -> Native.authRequestAddClaim(h, target.code, nameBytes, essentialCode, purposeBytes,
                valueBytes, valuesBytes));
        return this;
    }

    /**
     * Asks for Vipps/MobilePay's app-to-app flow: sends {@code requested_flow=app_to_app} with
     * {@code app_callback_uri}, the absolute URI the provider's app opens when it is done (handle it with
     * {@link PendingAuthorization#handleAppCallback}).
     */
    public @NonNull AuthorizationRequest appToApp(@NonNull String appCallbackUri) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(appCallbackUri, "appCallbackUri"));
        runExclusive(h -> Native.authRequestSetAppToApp(h, bytes));
        return this;
    }

    /**
     * Adds a resource indicator (RFC 8707): an absolute URI without a fragment the tokens are meant for,
     * sent with the request and again with the code exchange.
     *
     * @throws InvalidArgumentException for a URI that is not absolute, has a fragment, or was added already
     */
    public @NonNull AuthorizationRequest addResource(@NonNull String uri) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(uri, "uri"));
        runExclusive(h -> Native.authRequestAddResource(h, bytes));
        return this;
    }

    /**
     * Sets RFC 9396 {@code authorization_details}: a JSON array of objects, each with a string {@code type};
     * null clears it. What the provider granted is {@link AuthState#authorizationDetails()}.
     *
     * @throws InvalidArgumentException for JSON that is not such an array
     */
    public @NonNull AuthorizationRequest authorizationDetails(@Nullable String json) {
        byte[] bytes = json == null ? null : Utf8.encode(json);
        runExclusive(h -> Native.authRequestSetAuthorizationDetails(h, bytes));
        return this;
    }

    /**
     * Sets the {@code authorization_details} the code exchange asks for (RFC 9396 §6.1), e.g. a subset of
     * those authorized, with the same JSON rules as {@link #authorizationDetails(String)}; null clears it.
     * By default none is sent and the provider decides.
     *
     * @throws InvalidArgumentException for JSON that is not such an array
     */
    public @NonNull AuthorizationRequest tokenAuthorizationDetails(@Nullable String json) {
        byte[] bytes = json == null ? null : Utf8.encode(json);
        runExclusive(h -> Native.authRequestSetTokenAuthorizationDetails(h, bytes));
        return this;
    }

    /**
     * Applies a resource's step-up challenge (RFC 9470), the {@code WWW-Authenticate} value of its 401:
     * its acr values (also as an essential {@code acr} claim, checked at the exchange) and max_age.
     *
     * @return false, with the request unchanged, when the value is not a step-up challenge
     */
    public boolean applyStepUp(@NonNull String wwwAuthenticate) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(wwwAuthenticate, "wwwAuthenticate"));
        return callExclusive(h -> Native.authRequestApplyStepUp(h, bytes));
    }

    /**
     * Chooses the PKCE challenge method.
     *
     * @throws UnsupportedException for PLAIN unless the configuration allows it
     */
    public @NonNull AuthorizationRequest pkceMethod(@NonNull Pkce.Method method) {
        Objects.requireNonNull(method, "method");
        runExclusive(h -> Native.authRequestSetPkceMethod(h, method.code()));
        return this;
    }

    /**
     * Draws state, nonce and a PKCE verifier and builds the authorization URL. The request stays usable;
     * each build draws new secrets.
     *
     * @throws ConfigurationException when the configuration has no authorization endpoint
     * @throws RandomException when the random generator fails
     */
    public @NonNull PendingAuthorization build() {
        return new PendingAuthorization(callExclusive(Native::authRequestBuild), config);
    }
}
