package no.telenor.id;

import java.util.Objects;

/**
 * What one check of an access token learnt ({@code telenorid_token_info}), made by
 * {@link ResourceServer#introspect} (the members of an introspection answer, RFC 7662 §2.2) or
 * {@link ResourceServer#verifyAccessToken} (a JWT access token's claims, RFC 9068 §2.2). Immutable: any
 * thread. Keeps nothing alive; times are Unix seconds, 0 when absent.
 */
public final class TokenInfo extends NativeObject {
    /** The C values of telenorid_token_info_field. */
    enum Field {
        SCOPE(1),
        CLIENT_ID(2),
        USERNAME(3),
        TOKEN_TYPE(4),
        SUB(5),
        AUD(6),
        ISS(7),
        JTI(8),
        CNF_JKT(9),
        EXP(10),
        IAT(11),
        NBF(12);

        final int code;

        Field(int code) {
            this.code = code;
        }
    }

    TokenInfo(long handle) {
        super(handle, Native::tokenInfoFree);
    }

    private @Nullable String get(Field field) {
        return call(h -> Utf8.decode(Native.tokenInfoGet(h, field.code)));
    }

    private long time(Field field) {
        return call(h -> Native.tokenInfoTime(h, field.code));
    }

    /**
     * Whether the token is active (RFC 7662 §2.2). An introspection answer may say false (the token expired,
     * was revoked or was never issued): then no other member is present. A verified JWT access token is active.
     */
    public boolean active() {
        return call(Native::tokenInfoActive) != 0;
    }

    /** The token's scopes, separated by spaces; null when absent. */
    public @Nullable String scope() {
        return get(Field.SCOPE);
    }

    /** The client the token was issued to; null when absent. */
    public @Nullable String clientId() {
        return get(Field.CLIENT_ID);
    }

    /** Introspection only: a name of the resource owner; null when absent. */
    public @Nullable String username() {
        return get(Field.USERNAME);
    }

    /** Introspection only: the token's type, e.g. {@code "Bearer"} or {@code "DPoP"}; null when absent. */
    public @Nullable String tokenType() {
        return get(Field.TOKEN_TYPE);
    }

    /** The subject; null when absent. */
    public @Nullable String subject() {
        return get(Field.SUB);
    }

    /**
     * The audiences, separated by one space; null when absent. {@link #member member("aud")} gives them exactly,
     * as JSON.
     */
    public @Nullable String audience() {
        return get(Field.AUD);
    }

    /** The issuer; null when absent. */
    public @Nullable String issuer() {
        return get(Field.ISS);
    }

    /** The token's identifier ({@code jti}); null when absent. */
    public @Nullable String tokenId() {
        return get(Field.JTI);
    }

    /**
     * The RFC 7638 thumbprint of the DPoP key the token is bound to ({@code cnf.jkt}, RFC 9449 §6); null when
     * the token is not bound to one.
     */
    public @Nullable String confirmationThumbprint() {
        return get(Field.CNF_JKT);
    }

    /** When the token expires ({@code exp}), in Unix seconds; 0 when absent. */
    public long expiresAt() {
        return time(Field.EXP);
    }

    /** When the token was issued ({@code iat}), in Unix seconds; 0 when absent. */
    public long issuedAt() {
        return time(Field.IAT);
    }

    /** When the token becomes valid ({@code nbf}), in Unix seconds; 0 when absent. */
    public long notBefore() {
        return time(Field.NBF);
    }

    /**
     * Any member by name as JSON text (a string member comes quoted, {@code "\"machine-app\""}); null when
     * absent.
     *
     * @throws IllegalArgumentException when {@code name} contains a NUL character
     */
    public @Nullable String member(@NonNull String name) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        return call(h -> Utf8.decode(Native.tokenInfoMember(h, bytes)));
    }

    /** The whole introspection answer, or the JWT access token's claims, as one JSON object. */
    public @NonNull String json() {
        String json = call(h -> Utf8.decode(Native.tokenInfoJson(h)));
        return json == null ? "{}" : json;
    }

    /** Runs {@code body} with the native handle, open for its duration. */
    <T> T withHandle(Call<T> body) {
        return call(body);
    }
}
