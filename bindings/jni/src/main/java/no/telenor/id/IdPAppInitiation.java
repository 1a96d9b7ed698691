package no.telenor.id;

import java.util.Map;
import java.util.Objects;

/**
 * IdP-initiated sign-in (Salesforce Mobile SDK identity provider, {@code user_hint} "for use with IDP
 * initiated flow"): the identity-provider (IdP) app launches a service-provider (SP) app for a user the
 * person chose among those signed in to it, with that user's {@code user_hint} and {@code login_host}.
 *
 * <p>IdP side: {@code new IdPAppInitiation(userHint, loginHost)}, sent as a {@link #url} on the SP app's
 * scheme or as a {@link #bundle} in an intent. SP side: {@link #parseUrl} or {@link #parseBundle}, then
 * {@link IdPAppRequest#forPending(PendingAuthorization, String, String)} with {@link #loginHost()} and
 * {@link #userHint()}: the hint loops back to the IdP app, which recognises the user and gets the code
 * without a login screen. The message proves nothing; the SP's own request and response checks stay.
 *
 * <p>A user hint is 1 to 255 printable ASCII characters; a login host is a host or host:port. Immutable.
 */
public final class IdPAppInitiation {
    private final String userHint;
    private final String loginHost;

    /** The message for the chosen user; checked when it is sent ({@link #url}, {@link #bundle}). */
    public IdPAppInitiation(@NonNull String userHint, @NonNull String loginHost) {
        this.userHint = Objects.requireNonNull(userHint, "userHint");
        this.loginHost = Objects.requireNonNull(loginHost, "loginHost");
    }

    /** The chosen user, as given. */
    public @NonNull String userHint() {
        return userHint;
    }

    /** The login host, as given. */
    public @NonNull String loginHost() {
        return loginHost;
    }

    /**
     * IdP side: the message as a URL on the SP app's URI (no query or fragment).
     *
     * @throws InvalidArgumentException for a hint or login host that breaks the rules above, or an SP app URI
     *         with a query or fragment
     */
    public @NonNull String url(@NonNull String spAppUri) {
        byte[] appUri = Utf8.encode(Objects.requireNonNull(spAppUri, "spAppUri"));
        return Utf8.decode(Native.idpInitiationUrl(appUri, Utf8.encode(userHint), Utf8.encode(loginHost)));
    }

    /**
     * IdP side: the message as key-value pairs, for an intent's extras.
     *
     * @throws InvalidArgumentException for a hint or login host that breaks the rules above
     */
    public @NonNull Map<String, String> bundle() {
        return Bundles.decode(Native.idpInitiationParams(Utf8.encode(userHint), Utf8.encode(loginHost)));
    }

    /**
     * SP side: reads the IdP app's URL, which must be on {@code spAppUri}. Unknown parameters are ignored.
     *
     * @throws RedirectMismatchException when the URL is not on {@code spAppUri}
     * @throws MalformedException for a missing, repeated or ill-formed user_hint or login_host
     */
    public static @NonNull IdPAppInitiation parseUrl(@NonNull String url, @NonNull String spAppUri) {
        byte[] urlBytes = Utf8.encode(Objects.requireNonNull(url, "url"));
        byte[] appUri = Utf8.encode(Objects.requireNonNull(spAppUri, "spAppUri"));
        return of(Native.idpInitiationParseUrl(urlBytes, appUri));
    }

    /** SP side: {@link #parseUrl} for a message that came as the strings of an intent's bundle. */
    public static @NonNull IdPAppInitiation parseBundle(@NonNull Map<String, String> bundle) {
        return of(Native.idpInitiationParseParams(Bundles.encode(bundle)));
    }

    private static IdPAppInitiation of(byte[][] pair) {
        return new IdPAppInitiation(Utf8.decode(pair[0]), Utf8.decode(pair[1]));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IdPAppInitiation && userHint.equals(((IdPAppInitiation) other).userHint)
                && loginHost.equals(((IdPAppInitiation) other).loginHost);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userHint, loginHost);
    }

    @Override
    public String toString() {
        return "IdPAppInitiation{userHint=" + userHint + ", loginHost=" + loginHost + "}";
    }
}
