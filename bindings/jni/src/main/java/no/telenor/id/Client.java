package no.telenor.id;

import java.util.Objects;

/**
 * A client for one provider ({@code telenorid_client}): its metadata, keys and HTTP connections. Safe to
 * share between threads: create one per provider and keep it. Its methods block on the network (within the
 * configured timeouts), so call them off the UI thread. Keeps its {@link Config} alive; the
 * {@link AuthState}s made from it keep it alive.
 */
public final class Client extends NativeObject {
    private final Config config;

    /** Creates a client for {@code config}; makes no network call. */
    public Client(@NonNull Config config) {
        super(newHandle(config), Native::clientFree);
        this.config = config;
    }

    private static long newHandle(Config config) {
        return Objects.requireNonNull(config, "config").call(Native::clientNew);
    }

    /** The configuration the client was made with (without what discovery filled in: see {@link #config()}). */
    public @NonNull Config settings() {
        return config;
    }

    /**
     * Fetches and caches the provider's metadata now, checking its issuer is exactly the configured one.
     * Optional (calls that need an endpoint discover on first use), but it shows errors early.
     *
     * @throws IssuerMismatchException when the metadata names another issuer
     * @throws TransportException when the provider can't be reached (see {@link TelenoridException#isTransient()})
     * @throws InvalidResponseException when the document is not provider metadata
     */
    public void discover() {
        call(h -> {
            Native.clientDiscover(h);
            return null;
        });
    }

    /**
     * The configuration with every endpoint the app did not set filled in from discovery (which runs first
     * if needed): give it to {@link AuthorizationRequest}.
     */
    public @NonNull Config config() {
        return new Config(call(Native::clientConfig));
    }

    /**
     * Builds {@code request} as {@link AuthorizationRequest#build()} does, with this client's endpoints
     * (configured or discovered), and pushes it first (RFC 9126) when the configuration says
     * {@link Config.Builder#pushAuthorizationRequests} or the provider requires it: the URL then carries only
     * {@code client_id} and {@code request_uri}. Blocks on the network.
     *
     * @throws ConfigurationException when pushing is required and there is no endpoint for it
     * @throws AuthorizationErrorException when the provider refuses the pushed request, with its OAuth fields
     * @throws InvalidArgumentException when the request was made for another client's configuration
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull PendingAuthorization buildAuthorization(@NonNull AuthorizationRequest request) {
        Objects.requireNonNull(request, "request");
        return new PendingAuthorization(call(h -> request.call(r -> Native.clientBuildAuthRequest(h, r))), request.config());
    }

    /**
     * Exchanges the code of a validated callback for tokens and validates the ID token.
     *
     * @throws ConsumedException when this callback's code was already sent
     * @throws AuthorizationErrorException when the provider refuses, with its OAuth fields and HTTP status
     * @throws TokenInvalidException when the ID token fails validation
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull AuthState exchangeCode(@NonNull AuthorizationCallback callback) {
        Objects.requireNonNull(callback, "callback");
        return AuthState.create(call(h -> callback.call(c -> Native.clientExchangeCode(h, c))), this);
    }

    /**
     * Restores a state saved with {@link AuthState#serialize()}.
     *
     * @throws MalformedException when {@code json} does not parse
     * @throws VersionException for a format this library can't read
     * @throws ConfigurationException when it was saved for another issuer or client id
     */
    public @NonNull AuthState restore(@NonNull String json) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(json, "json"));
        return AuthState.create(call(h -> Native.authStateRestore(h, bytes)), this);
    }

    /**
     * The state kept in the file at {@code path}, bound to it as {@link AuthState#bindFile} does: signed out
     * when the file does not exist yet (it is then created), so open the same file at every start and sign
     * in when {@link AuthState#isSignedIn()} is false. Every process (or object) that opens the file shares
     * the sign-in: a refresh made by one is taken up by the others instead of spending the refresh token
     * twice.
     *
     * @throws ConfigurationException when the file can't be read or written, or was saved for another
     *     issuer or client id
     * @throws MalformedException when the file does not parse
     * @throws VersionException for a format this library can't read
     */
    public @NonNull AuthState openAuthStateFile(@NonNull String path) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(path, "path"));
        return AuthState.create(call(h -> Native.authStateOpenFile(h, bytes)), this);
    }

    /**
     * Validates an ID token the app holds (saved earlier, or handed to a backend) as sign-in does: the
     * signature with the provider's keys, iss, aud and azp, exp, iat and nbf and, when {@code nonce} is
     * not null, the nonce. Returns {@code {"header": {...}, "claims": {...}}} as JSON.
     *
     * @throws TokenInvalidException when the token fails, with the reason in the message
     * @throws TransportException when the provider's keys can't be fetched
     */
    public @NonNull String verifyIdToken(@NonNull String idToken, @Nullable String nonce) {
        byte[] token = Utf8.encode(Objects.requireNonNull(idToken, "idToken"));
        byte[] nonceBytes = Utf8.encode(nonce);
        return call(h -> Utf8.decode(Native.clientVerifyIdToken(h, token, nonceBytes)));
    }
}
