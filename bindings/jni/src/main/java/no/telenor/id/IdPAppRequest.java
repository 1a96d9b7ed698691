package no.telenor.id;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/**
 * A request between a service-provider (SP) app and an identity-provider (IdP) app
 * ({@code telenorid_idp_request}, Salesforce Mobile SDK identity provider): one trusted app signs the user in and hands other apps an
 * authorization code, never a token, password or PKCE verifier.
 *
 * <p>SP side: {@link #forPending} from the SP's own pending authorization, sent as a {@link #url} on the
 * IdP app's scheme or as a {@link #bundle} in an intent; the answer goes to
 * {@link PendingAuthorization#handleIdpResponse(String, String...)}.
 *
 * <p>IdP side: {@link #parseUrl} or {@link #parseBundle} the caller's request, open
 * {@link #authorizationUrl} in the browser, and turn the provider's redirect into the
 * {@link #respond response} for the caller.
 *
 * <p>Immutable; safe to share.
 */
public final class IdPAppRequest extends NativeObject {
    private IdPAppRequest(long handle) {
        super(handle, Native::idpRequestFree);
    }

    /**
     * SP side: the request for the IdP app, carrying the challenge of {@code pending} (which must use
     * S256), never its verifier. {@code loginHost} and {@code userHint} may be null (not sent).
     *
     * @throws UnsupportedException when {@code pending} does not use S256 PKCE
     */
    public static @NonNull IdPAppRequest forPending(@NonNull PendingAuthorization pending,
            @Nullable String loginHost, @Nullable String userHint) {
        Objects.requireNonNull(pending, "pending");
        byte[] host = Utf8.encode(loginHost);
        byte[] hint = Utf8.encode(userHint);
        return new IdPAppRequest(pending.call(h -> Native.idpRequestNew(h, host, hint)));
    }

    /**
     * IdP side: parses and checks a caller's request URL, which must be on {@code idpAppUri}. Its
     * {@code oauth_redirect_uri} must be exactly one of {@code callerRedirectUris}, the redirect URIs the
     * IdP app knows belong to the calling app.
     *
     * @throws RedirectMismatchException when the redirect URI is not one of the caller's
     * @throws MalformedException for a challenge that is not S256, a missing state, client id or scopes,
     *         an unknown or repeated parameter
     */
    public static @NonNull IdPAppRequest parseUrl(@NonNull String url, @NonNull String idpAppUri,
            @NonNull Collection<String> callerRedirectUris) {
        byte[] urlBytes = Utf8.encode(Objects.requireNonNull(url, "url"));
        byte[] appUri = Utf8.encode(Objects.requireNonNull(idpAppUri, "idpAppUri"));
        byte[][] callers = Bundles.encodeAll(callerRedirectUris, "callerRedirectUris");
        return new IdPAppRequest(Native.idpRequestParseUrl(urlBytes, appUri, callers));
    }

    /** IdP side: {@link #parseUrl} for a request that came as the strings of an intent's bundle. */
    public static @NonNull IdPAppRequest parseBundle(@NonNull Map<String, String> bundle,
            @NonNull Collection<String> callerRedirectUris) {
        byte[][] flat = Bundles.encode(bundle);
        byte[][] callers = Bundles.encodeAll(callerRedirectUris, "callerRedirectUris");
        return new IdPAppRequest(Native.idpRequestParseParams(flat, callers));
    }

    /** SP side: the request as a URL on the IdP app's URI (e.g. {@code "idpapp://authorize"}). */
    public @NonNull String url(@NonNull String idpAppUri) {
        byte[] appUri = Utf8.encode(Objects.requireNonNull(idpAppUri, "idpAppUri"));
        return call(h -> Utf8.decode(Native.idpRequestUrl(h, appUri)));
    }

    /** SP side: the request as key-value pairs, for an intent's extras. */
    public @NonNull Map<String, String> bundle() {
        return call(h -> Bundles.decode(Native.idpRequestParams(h)));
    }

    /**
     * IdP side: the authorization URL to open for the caller: its client id, redirect URI, state, nonce
     * and S256 challenge; the user hint as {@code login_hint}.
     *
     * @throws InsecureException when the endpoint is not https (http only on loopback)
     */
    public @NonNull String authorizationUrl(@NonNull String authorizationEndpoint) {
        byte[] endpoint = Utf8.encode(Objects.requireNonNull(authorizationEndpoint, "authorizationEndpoint"));
        return call(h -> Utf8.decode(Native.idpRequestAuthorizationUrl(h, endpoint)));
    }

    /**
     * IdP side: the provider's redirect turned into the response for the caller, naming {@code loginHost}
     * (host or host:port) where the code was obtained. A provider {@code error} becomes an error response.
     *
     * @throws RedirectMismatchException when the redirect is not to the caller's redirect URI
     * @throws StateMismatchException when it does not carry the caller's state
     */
    public @NonNull IdPAppResponse respond(@NonNull String providerRedirectUrl, @NonNull String loginHost) {
        byte[] redirect = Utf8.encode(Objects.requireNonNull(providerRedirectUrl, "providerRedirectUrl"));
        byte[] host = Utf8.encode(Objects.requireNonNull(loginHost, "loginHost"));
        return new IdPAppResponse(call(h -> Native.idpRequestRespond(h, redirect, host)));
    }

    /** The same list, as the natives take it. */
    static byte[][] hosts(String... allowedLoginHosts) {
        return Bundles.encodeAll(Arrays.asList(allowedLoginHosts), "allowedLoginHosts");
    }
}
