package no.telenor.id;

/**
 * What a token exchange issued (RFC 8693 §2.2.1, {@code telenorid_issued_token}): the token, whatever its
 * kind, and {@link #issuedTokenType()}, which says what it is. The members never change: any thread. Keeps its
 * client alive, in Java and natively.
 */
public final class IssuedToken extends NativeObject {
    /** The C values of telenorid_issued_token_field. */
    enum Field {
        TOKEN(1),
        TOKEN_TYPE(2),
        ACCESS_TOKEN_TYPE(3),
        SCOPE(4),
        REFRESH_TOKEN(5);

        final int code;

        Field(int code) {
            this.code = code;
        }
    }

    private final Client client;

    IssuedToken(long handle, Client client) {
        // The free action releases the client's signers with the handle (the cleaner must not reach `this`).
        super(handle, client.signers().releasingAfter(Native::issuedTokenFree));
        this.client = client;
    }

    private @Nullable String get(Field field) {
        return call(h -> Utf8.decode(Native.issuedTokenGet(h, field.code)));
    }

    /** The issued token (the response's {@code access_token} member, whatever the token is). A secret. */
    public @NonNull String token() {
        String token = get(Field.TOKEN);
        return token == null ? "" : token;
    }

    /** What the token is: a URI, one of {@link TokenType} or the provider's own. */
    public @NonNull String issuedTokenType() {
        String type = get(Field.TOKEN_TYPE);
        return type == null ? "" : type;
    }

    /** How an access token is used ({@code Bearer}, {@code DPoP}); {@code N_A} for a token that is not one. */
    public @NonNull String tokenType() {
        String type = get(Field.ACCESS_TOKEN_TYPE);
        return type == null ? "" : type;
    }

    /** The issued token's scope; null when the provider did not say. */
    public @Nullable String scope() {
        return get(Field.SCOPE);
    }

    /** A refresh token that came with it, else null. A secret. */
    public @Nullable String refreshToken() {
        return get(Field.REFRESH_TOKEN);
    }

    /** When the token expires, in Unix seconds of the client's clock; 0 when the provider did not say. */
    public long expiresAt() {
        return call(Native::issuedTokenExpiresAt);
    }

    /**
     * The token as a new auth state of the exchanging client, refreshed through it: only an access token
     * that came with a refresh token, and once.
     *
     * @throws InvalidArgumentException when the token is not an access token with a refresh token
     * @throws ConsumedException when it became an auth state before
     */
    public @NonNull AuthState authState() {
        return client.newAuthState(c -> call(Native::issuedTokenAuthState));
    }
}
