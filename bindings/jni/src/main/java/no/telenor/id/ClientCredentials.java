package no.telenor.id;

import java.util.Arrays;
import java.util.Objects;

/**
 * A machine's own access token ({@code telenorid_client_credentials}) from the client credentials grant (RFC
 * 6749 §4.4: a confidential client asks the token endpoint in its own name, with its authentication as
 * configured and no user) or, since 0.8.0, the JWT bearer grant (RFC 7523 §2.1: {@link #jwtBearer},
 * {@link #jwtBearerWithAssertion}). The token is kept (in memory, or in a store shared by processes:
 * {@link #bindStore}) and asked for again when it is about to expire (within
 * {@link Config.Key#REFRESH_MARGIN_S}) or after {@link #rejected}: one request at a time, whose outcome every
 * thread waiting for a token shares. A client configured for DPoP (RFC 9449) gets DPoP-bound tokens since
 * 0.8.0: present them with {@link #requestHeaders}. Safe to share between threads. Keeps its client alive, in
 * Java and natively.
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

    /**
     * The JWT bearer grant (RFC 7523 §2.1) with assertions the library makes and signs with the client's own
     * key (its private_key_jwt key: {@link Config.Key#CLIENT_PRIVATE_KEY} or {@link Client#setClientSigner})
     * about {@code subject}: {@code iss} the client id, {@code sub} the subject, {@code aud} as for client
     * assertions, a random {@code jti}, {@code exp} a minute away (§3); a new one for each request, so the
     * token is renewed as a client credentials token is. Since 0.8.0.
     *
     * @throws ConfigurationException when the client has no key to sign with
     * @throws InvalidArgumentException when {@code scope} or {@code subject} is empty
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public static @NonNull ClientCredentials jwtBearer(@NonNull Client client, @Nullable String scope,
            @NonNull String subject) {
        byte[] scopeBytes = Utf8.encode(scope);
        byte[] subjectBytes = Utf8.encode(Objects.requireNonNull(subject, "subject"));
        return new ClientCredentials(client, Objects.requireNonNull(client, "client").newSignerOwner(
                h -> Native.clientCredentialsNewJwtBearer(h, scopeBytes, subjectBytes, null)));
    }

    /**
     * The JWT bearer grant (RFC 7523 §2.1) with an {@code assertion} (a JWT) the app made. It is sent once: the
     * token it brings is not renewed, and {@link #accessToken()} after that token expired or was refused
     * throws {@link ConsumedException}. Since 0.8.0.
     *
     * @throws InvalidArgumentException when {@code scope} is empty or {@code assertion} is no JWT
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public static @NonNull ClientCredentials jwtBearerWithAssertion(@NonNull Client client, @Nullable String scope,
            @NonNull String assertion) {
        byte[] scopeBytes = Utf8.encode(scope);
        byte[] assertionBytes = Utf8.encode(Objects.requireNonNull(assertion, "assertion"));
        try {
            return new ClientCredentials(client, Objects.requireNonNull(client, "client").newSignerOwner(
                    h -> Native.clientCredentialsNewJwtBearer(h, scopeBytes, null, assertionBytes)));
        } finally {
            Arrays.fill(assertionBytes, (byte) 0);
        }
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

    /**
     * Adds a resource indicator (RFC 8707 §2), an absolute URI without a fragment that the token is meant for,
     * sent with every token request; a token held was asked for without it, so the next {@link #accessToken()}
     * asks again. Since 0.8.0.
     *
     * @throws InvalidArgumentException when {@code uri} is no absolute URI, has a fragment, or was added
     * @throws IllegalArgumentException when {@code uri} contains a NUL character
     */
    public @NonNull ClientCredentials addResource(@NonNull String uri) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(uri, "uri"));
        call(h -> {
            Native.clientCredentialsAddResource(h, bytes);
            return null;
        });
        return this;
    }

    /**
     * The {@code Authorization} and {@code DPoP} header values for one request to a resource server
     * ({@code method} and the full {@code url}), with the token (asked for first when none is fresh): for a
     * DPoP-bound token a proof made with this object's key (RFC 9449 §7), for a bearer token none;
     * {@code resourceNonce} is the resource's {@code DPoP-Nonce} after a use_dpop_nonce answer, else null.
     * As {@link AuthState#requestHeaders}. Since 0.8.0.
     *
     * @throws InsecureException when {@code url} is not https (or http on a loopback host)
     * @throws InvalidArgumentException when {@code url} is no URL or {@code method} no HTTP method
     * @throws AuthorizationErrorException when the provider refuses the token request
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull RequestHeaders requestHeaders(@NonNull String method, @NonNull String url,
            @Nullable String resourceNonce) {
        return AuthState.requestHeaders(this, Native::clientCredentialsRequestHeaders, method, url, resourceNonce);
    }

    /**
     * Whether to send a request of the app's own once more, given the resource server's answer to it, as
     * {@link AuthState#resourceAnswered} says for a user's token: its {@code status}, its
     * {@code WWW-Authenticate} header(s) (several joined with ", "; null when none), its {@code DPoP-Nonce}
     * header (null when none) and the {@code Authorization} value the request carried (from
     * {@link #requestHeaders}). True for a 401 refusing the token (reported as {@link #rejected} does, so the
     * next {@link #requestHeaders} carries a new one) or asking for the DPoP nonce it gave (kept for that
     * server, RFC 9449 §9); a nonce on any answer is kept. Retry once, with new {@link #requestHeaders}. No
     * network call; any thread. Since 0.8.0.
     *
     * @param url where the request went
     * @param status the answer's HTTP status
     * @param wwwAuthenticate the answer's {@code WWW-Authenticate} header(s), or null
     * @param dpopNonce the answer's {@code DPoP-Nonce} header, or null
     * @param authorizationSent the {@code Authorization} value the request carried
     * @return true to send the request once more, with new headers
     * @throws InvalidArgumentException when {@code status} is no HTTP status code
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public boolean resourceAnswered(@NonNull String url, int status, @Nullable String wwwAuthenticate,
            @Nullable String dpopNonce, @NonNull String authorizationSent) {
        return AuthState.resourceAnswered(this, Native::clientCredentialsResourceAnswered, url, status,
                wwwAuthenticate, dpopNonce, authorizationSent);
    }

    /**
     * Keeps the token in record {@code key} of the app's {@code store} from now on, shared by every
     * {@code ClientCredentials} of every process bound to that record: one of them asks for a new token, under
     * the record's lock, and the others take it up. A record of another grant, scope or resources is replaced.
     * Since 0.8.0.
     *
     * @throws InvalidArgumentException for a key that is not 1 to 128 of {@code A-Z a-z 0-9 . _ -}, or for a
     *     token from a given assertion
     */
    public void bindStore(@NonNull Store store, @NonNull String key) {
        StoreCall call = new StoreCall(Objects.requireNonNull(store, "store"));
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        call(h -> {
            Native.clientCredentialsBindStore(h, call, null, keyBytes);
            return null;
        });
    }

    /**
     * {@link #bindStore(Store, String)} with the library's file store: {@code <directory>/<key>.json}. Since
     * 0.8.0.
     *
     * @throws InvalidArgumentException for a key that is not 1 to 128 of {@code A-Z a-z 0-9 . _ -}, or for a
     *     token from a given assertion
     */
    public void bindStore(@NonNull DirectoryStore store, @NonNull String key) {
        byte[] directory = Utf8.encode(Objects.requireNonNull(store, "store").directory());
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        call(h -> {
            Native.clientCredentialsBindStore(h, null, directory, keyBytes);
            return null;
        });
    }
}
