package no.telenor.id;

import java.util.Objects;

/**
 * A machine's own access token from the client credentials grant (RFC 6749 §4.4,
 * {@code telenorid_client_credentials}): a confidential client asks the token endpoint in its own name, with
 * its authentication as configured and no user. The token is kept (in memory only) and asked for again when
 * it is about to expire (within {@link Config.Key#REFRESH_MARGIN_S}) or after {@link #rejected}: one request
 * at a time, whose outcome every thread waiting for a token shares. Tokens are bearer tokens (no DPoP proof is
 * sent for this grant). Safe to share between threads. Keeps its client alive, in Java and natively.
 */
public final class ClientCredentials extends NativeObject {
    private final Client client;

    /**
     * Prepares the grant for {@code scope} (null: no scope parameter, the provider's default for the client);
     * makes no request yet.
     *
     * @throws InvalidArgumentException when {@code scope} is empty
     * @throws ConfigurationException when the client is public (token endpoint auth method {@code none})
     * @throws IllegalArgumentException when {@code scope} contains a NUL character
     */
    public ClientCredentials(@NonNull Client client, @Nullable String scope) {
        this(client, newHandle(client, scope));
    }

    private ClientCredentials(Client client, long handle) {
        // The free action releases the client's signers with the handle (the cleaner must not reach `this`).
        super(handle, client.signers().releasingAfter(Native::clientCredentialsFree));
        this.client = client;
    }


    private static long newHandle(Client client, String scope) {
        byte[] bytes = Utf8.encode(scope);
        return Objects.requireNonNull(client, "client").newSignerOwner(h -> Native.clientCredentialsNew(h, bytes));
    }

    /** The client whose token this is. */
    public @NonNull Client client() {
        return client;
    }

    /**
     * An access token valid for at least the refresh margin: the one held, else a new one from the token
     * endpoint ({@code grant_type=client_credentials}). Blocks on the network when it asks.
     *
     * @throws AuthorizationErrorException when the provider refuses the request (invalid_scope...), with its
     *     OAuth fields
     * @throws ClientRejectedException when the provider refuses the client (invalid_client,
     *     unauthorized_client)
     * @throws InvalidResponseException when the answer is not a token response
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull String accessToken() {
        String token = HostCallFailure.attach(() -> call(h -> Utf8.decode(Native.clientCredentialsAccessToken(h))));
        return token == null ? "" : token;
    }

    /**
     * When the token held expires, in Unix seconds of the client's clock; 0 when none is held or the provider
     * gave no {@code expires_in}.
     */
    public long expiresAt() {
        return call(Native::clientCredentialsExpiresAt);
    }

    /**
     * A resource server refused {@code accessToken} (null: the one held): the next {@link #accessToken()}
     * asks for a new one. A token no longer held changes nothing.
     *
     * @throws IllegalArgumentException when {@code accessToken} contains a NUL character
     */
    public void rejected(@Nullable String accessToken) {
        byte[] bytes = Utf8.encode(accessToken);
        call(h -> {
            Native.clientCredentialsRejected(h, bytes);
            return null;
        });
    }
}
