package no.telenor.id;

import java.util.Map;
import java.util.Objects;

/**
 * An authorization in progress ({@code telenorid_pending_auth}): the URL to open in the browser and the
 * secrets (state, nonce, PKCE verifier) to check its answer with.
 *
 * <p>Immutable except for being consumed by its first valid callback; safe to share between threads.
 * Persist it with {@link #serialize()} (in the app's private storage: it holds the verifier) so that an
 * app killed while the browser is open can {@link #restore} it. Keeps its {@link Config} alive.
 */
public final class PendingAuthorization extends NativeObject {
    private final Config config;

    PendingAuthorization(long handle, Config config) {
        super(handle, Native::pendingAuthFree);
        this.config = config;
    }

    /**
     * Restores a serialized pending authorization for {@code config}.
     *
     * @throws MalformedException when {@code json} does not parse
     * @throws VersionException for a format version this library does not read
     * @throws ConfigurationException when it was made for another client id or redirect URI
     */
    public static @NonNull PendingAuthorization restore(@NonNull Config config, @NonNull String json) {
        Objects.requireNonNull(config, "config");
        byte[] bytes = Utf8.encode(Objects.requireNonNull(json, "json"));
        return new PendingAuthorization(config.call(h -> Native.pendingAuthRestore(h, bytes)), config);
    }

    /** The configuration this authorization was made for. */
    public @NonNull Config config() {
        return config;
    }

    /** The authorization URL to open in the system browser (a Custom Tab on Android). */
    public @NonNull String url() {
        return call(h -> Utf8.decode(Native.pendingAuthUrl(h)));
    }

    /** The request's {@code state}. */
    public @NonNull String state() {
        return call(h -> Utf8.decode(Native.pendingAuthState(h)));
    }

    /** The request's {@code nonce}, to be found again in the ID token. */
    public @NonNull String nonce() {
        return call(h -> Utf8.decode(Native.pendingAuthNonce(h)));
    }

    /** The PKCE verifier: a secret, for the token request. */
    public @NonNull String codeVerifier() {
        return call(h -> Utf8.decode(Native.pendingAuthCodeVerifier(h)));
    }

    /** Versioned JSON for {@link #restore}. It holds the PKCE verifier: keep it private. */
    public @NonNull String serialize() {
        return call(h -> Utf8.decode(Native.pendingAuthSerialize(h)));
    }

    /**
     * Checks the redirect the app received (the whole URL, e.g. {@code intent.getData().toString()}): it
     * must be the configured redirect URI with the response in its query (or fragment, for
     * response_mode=fragment), no repeated parameter, the matching {@code state} and, if present, the
     * right {@code iss}. On success this pending authorization is consumed.
     *
     * @throws AuthorizationErrorException when the provider answered with an OAuth {@code error}; its
     *         {@code error}, {@code error_description} and {@code error_uri} are on the exception
     * @throws StateMismatchException when the state is not this request's (not consumed: a forged callback
     *         does not spoil the real one)
     * @throws RedirectMismatchException when the URL is not the configured redirect URI
     * @throws IssuerMismatchException when {@code iss} is not the configured issuer
     * @throws MalformedException when the URL does not parse or a parameter repeats
     * @throws ConsumedException when a callback for this request was already accepted
     */
    public @NonNull AuthorizationCallback handleCallback(@NonNull String redirectUrl) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(redirectUrl, "redirectUrl"));
        return new AuthorizationCallback(call(h -> Native.pendingAuthHandleCallback(h, bytes)), this);
    }

    /** {@link #handleAppCallback(String, String)} allowing a resume URI on the authorization endpoint's host. */
    public @NonNull AppCallback handleAppCallback(@NonNull String callbackUrl) {
        return handleAppCallback(callbackUrl, null);
    }

    /**
     * Checks what the provider's app (Vipps/MobilePay app-to-app) opened at the app callback URI: the
     * {@code state} must match and a {@code resume_uri} must be https on {@code allowedResumeHost} (null:
     * the authorization endpoint's host). Does not consume this pending authorization: the code still
     * arrives at the redirect URI.
     *
     * @throws AuthorizationErrorException for an {@code error} parameter, also in the form
     *         {@code state=...?error=...} of the provider's own examples
     * @throws StateMismatchException when the state is not this request's
     */
    public @NonNull AppCallback handleAppCallback(@NonNull String callbackUrl, @Nullable String allowedResumeHost) {
        byte[] url = Utf8.encode(Objects.requireNonNull(callbackUrl, "callbackUrl"));
        byte[] host = Utf8.encode(allowedResumeHost);
        return new AppCallback(call(h -> Native.pendingAuthHandleAppCallback(h, url, host)), this);
    }

    /**
     * Service-provider side of the identity-provider app flow (Salesforce Mobile SDK identity provider): checks the IdP app's response,
     * opened at the configured redirect URI, against this request. Its {@code state} must match and its
     * {@code login_host} must be one of {@code allowedLoginHosts} (host or host:port; none given: the
     * issuer's). On success this pending authorization is consumed and the callback goes to
     * {@link Client#exchangeCode} like a browser redirect's.
     *
     * @throws AuthorizationErrorException when the IdP app answered with an {@code error}
     * @throws StateMismatchException when the state is not this request's
     * @throws IssuerMismatchException when the login host is not allowed
     * @throws MalformedException for an unknown or repeated parameter
     */
    public @NonNull AuthorizationCallback handleIdpResponse(@NonNull String responseUrl,
            @NonNull String... allowedLoginHosts) {
        byte[] url = Utf8.encode(Objects.requireNonNull(responseUrl, "responseUrl"));
        byte[][] hosts = IdPAppRequest.hosts(allowedLoginHosts);
        return new AuthorizationCallback(call(h -> Native.pendingAuthHandleIdpResponseUrl(h, url, hosts)), this);
    }

    /** {@link #handleIdpResponse(String, String...)} for a response that came as an intent's extras. */
    public @NonNull AuthorizationCallback handleIdpResponse(@NonNull Map<String, String> responseBundle,
            @NonNull String... allowedLoginHosts) {
        byte[][] flat = Bundles.encode(responseBundle);
        byte[][] hosts = IdPAppRequest.hosts(allowedLoginHosts);
        return new AuthorizationCallback(call(h -> Native.pendingAuthHandleIdpResponseParams(h, flat, hosts)), this);
    }
}
