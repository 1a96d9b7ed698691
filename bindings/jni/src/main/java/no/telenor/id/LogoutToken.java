package no.telenor.id;

/**
 * A validated logout token ({@code telenorid_logout_token}, OpenID Connect Back-Channel Logout 1.0 §2.4), made
 * by {@link BackchannelLogout#validate}: whom the provider signed out. Hand it to
 * {@link Accounts#backchannelLogout} or {@link AuthState#backchannelLogout} to sign out locally what it names.
 * Immutable: any thread. Keeps nothing alive.
 */
public final class LogoutToken extends NativeObject {
    /** The C values of telenorid_logout_token_field. */
    enum Field {
        SUB(1),
        SID(2),
        ISS(3),
        JTI(4);

        final int code;

        Field(int code) {
            this.code = code;
        }
    }

    LogoutToken(long handle) {
        super(handle, Native::logoutTokenFree);
    }

    private @Nullable String get(Field field) {
        return call(h -> Utf8.decode(Native.logoutTokenGet(h, field.code)));
    }

    /**
     * The end-user signed out at the provider ({@code sub}): all their sessions end; null when the token names
     * only a session. A token has a subject, a session id or both.
     */
    public @Nullable String subject() {
        return get(Field.SUB);
    }

    /**
     * The provider's session that ended ({@code sid}, the {@code sid} of the ID tokens issued in it): only that
     * one ends; null when the token names only a subject.
     */
    public @Nullable String sessionId() {
        return get(Field.SID);
    }

    /** The issuer ({@code iss}), the client's provider. */
    public @NonNull String issuer() {
        String issuer = get(Field.ISS);
        return issuer == null ? "" : issuer;
    }

    /** The token's identifier ({@code jti}). */
    public @NonNull String tokenId() {
        String jti = get(Field.JTI);
        return jti == null ? "" : jti;
    }

    /** The token's claims as one JSON object. */
    public @NonNull String json() {
        String json = call(h -> Utf8.decode(Native.logoutTokenJson(h)));
        return json == null ? "{}" : json;
    }
}
