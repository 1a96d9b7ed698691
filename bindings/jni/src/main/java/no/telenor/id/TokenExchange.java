package no.telenor.id;

import java.util.Objects;

/**
 * A token exchange request (RFC 8693 §2.1, {@code telenorid_token_exchange}): a token the client holds, the
 * subject token, with its type (a {@link TokenType} or the provider's own URI), and optionally an actor token,
 * resources, audiences, a scope and the type of token wanted; {@link #exchange} sends it. The library checks
 * each value and keeps the tokens in memory it wipes. Safe to share between threads; keeps nothing alive.
 */
public final class TokenExchange extends NativeObject {
    /**
     * A request to exchange {@code subjectToken}, of type {@code subjectTokenType}.
     *
     * @throws InvalidArgumentException when the token is empty or the type is not a URI
     * @throws IllegalArgumentException when either contains a NUL character
     */
    public TokenExchange(@NonNull String subjectToken, @NonNull String subjectTokenType) {
        super(newHandle(subjectToken, subjectTokenType), Native::tokenExchangeFree);
    }

    private static long newHandle(String subjectToken, String subjectTokenType) {
        byte[] token = Utf8.encode(Objects.requireNonNull(subjectToken, "subjectToken"));
        byte[] type = Utf8.encode(Objects.requireNonNull(subjectTokenType, "subjectTokenType"));
        return Native.tokenExchangeNew(token, type);
    }

    /**
     * Sets the actor token (the party acting for the subject, §2.1) and its type: both or neither (null for
     * both removes the actor).
     *
     * @throws InvalidArgumentException when only one is given, the token is empty or the type is not a URI
     * @throws IllegalArgumentException when either contains a NUL character
     */
    public @NonNull TokenExchange actor(@Nullable String actorToken, @Nullable String actorTokenType) {
        byte[] token = Utf8.encode(actorToken);
        byte[] type = Utf8.encode(actorTokenType);
        runExclusive(h -> Native.tokenExchangeSetActor(h, token, type));
        return this;
    }

    /**
     * Adds a {@code resource} (§2.1, RFC 8707): an absolute URI without a fragment where the token is used.
     *
     * @throws InvalidArgumentException when it is not such a URI, or was added before
     * @throws IllegalArgumentException when it contains a NUL character
     */
    public @NonNull TokenExchange addResource(@NonNull String uri) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(uri, "uri"));
        runExclusive(h -> Native.tokenExchangeAddResource(h, bytes));
        return this;
    }

    /**
     * Adds an {@code audience} (§2.1): the logical name of a service the token is for.
     *
     * @throws InvalidArgumentException when it is empty or was added before
     * @throws IllegalArgumentException when it contains a NUL character
     */
    public @NonNull TokenExchange addAudience(@NonNull String audience) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(audience, "audience"));
        runExclusive(h -> Native.tokenExchangeAddAudience(h, bytes));
        return this;
    }

    /**
     * Sets the {@code scope} asked for (space-separated); null sends none.
     *
     * @throws InvalidArgumentException when it is empty
     * @throws IllegalArgumentException when it contains a NUL character
     */
    public @NonNull TokenExchange scope(@Nullable String scope) {
        byte[] bytes = Utf8.encode(scope);
        runExclusive(h -> Native.tokenExchangeSetScope(h, bytes));
        return this;
    }

    /**
     * Sets {@code requested_token_type} (a {@link TokenType} or another URI); null leaves it to the provider.
     *
     * @throws InvalidArgumentException when it is not a URI
     * @throws IllegalArgumentException when it contains a NUL character
     */
    public @NonNull TokenExchange requestedTokenType(@Nullable String tokenType) {
        byte[] bytes = Utf8.encode(tokenType);
        runExclusive(h -> Native.tokenExchangeSetRequestedTokenType(h, bytes));
        return this;
    }

    /**
     * Exchanges the token at {@code client}'s token endpoint, with its authentication as configured (and a
     * DPoP proof when DPoP is in use). Blocks on the network.
     *
     * @throws AuthorizationErrorException when the provider refuses (invalid_request, invalid_target...),
     *     with its OAuth fields
     * @throws ClientRejectedException when the provider refuses the client
     * @throws InvalidResponseException when the answer lacks access_token, issued_token_type or token_type
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull IssuedToken exchange(@NonNull Client client) {
        Objects.requireNonNull(client, "client");
        long handle = HostCallFailure.attach(() -> call(
                e -> client.newSignerOwner(c -> Native.clientExchangeToken(c, e))));
        return new IssuedToken(handle, client);
    }
}
