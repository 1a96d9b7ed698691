package no.telenor.id;

import java.util.Objects;

/**
 * An API's checks of the access tokens its callers send ({@code telenorid_resource_server}): by asking the
 * provider's introspection endpoint ({@link #introspect}, RFC 7662) or, for a JWT access token, by verifying
 * it locally with the provider's key set ({@link #verifyAccessToken}, RFC 9068). Made from the
 * {@link Client} of the resource server's own registration at the provider: introspection authenticates as
 * that client does at the token endpoint, and the checks share its metadata and key-set caches. Access
 * tokens are secrets: the library sends them only in an introspection request's body and never logs them.
 * Safe to share between threads. Keeps its client alive, in Java and natively.
 */
public final class ResourceServer extends NativeObject {
    /** The C values of telenorid_resource_server_option. */
    enum Option {
        INTROSPECTION_CACHE_MAX_AGE_S(1),
        ACCESS_TOKEN_SIGNING_ALGS(2),
        ACCEPT_TYP_JWT(3),
        DPOP_SIGNING_ALGS(4),
        DPOP_REQUIRE_NONCE(5);

        final int code;

        Option(int code) {
            this.code = code;
        }
    }

    private final Client client;

    /**
     * Creates a resource server checking tokens with {@code client}'s provider; makes no network call.
     * {@code audience} is this resource server's identifier, which a JWT access token's {@code aud} must
     * contain (RFC 9068 §4); it is not checked on an introspection answer.
     *
     * @throws InvalidArgumentException when {@code audience} is empty
     * @throws IllegalArgumentException when {@code audience} contains a NUL character
     */
    public ResourceServer(@NonNull Client client, @NonNull String audience) {
        this(client, newHandle(client, audience));
    }

    private ResourceServer(Client client, long handle) {
        // The free action releases the client's signers with the handle (the cleaner must not reach `this`).
        super(handle, client.signers().releasingAfter(Native::resourceServerFree));
        this.client = client;
    }


    private static long newHandle(Client client, String audience) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(audience, "audience"));
        return Objects.requireNonNull(client, "client").newSignerOwner(h -> Native.resourceServerNew(h, bytes));
    }

    /** The client this resource server checks tokens with. */
    public @NonNull Client client() {
        return client;
    }

    private void set(Option option, @Nullable String value) {
        byte[] bytes = Utf8.encode(value);
        call(h -> {
            Native.resourceServerSet(h, option.code, bytes);
            return null;
        });
    }

    /**
     * Reuses an introspection answer for the same token for up to {@code seconds} (0 to 86400; default 0,
     * every call asks), never at or past the token's {@code exp}: a revoked token can be accepted for at most
     * this long. Keeps at most 1024 answers; 0 empties the cache. Applies to the checks that start after it.
     *
     * @throws InvalidArgumentException when {@code seconds} is out of range
     */
    public void setIntrospectionCacheMaxAge(int seconds) {
        set(Option.INTROSPECTION_CACHE_MAX_AGE_S, Integer.toString(seconds));
    }

    /**
     * The JWS algorithms a JWT access token may be signed with, separated by spaces, each one of RS256 RS384
     * RS512 PS256 PS384 PS512 ES256 ES384 ES512 EdDSA (no HS*, no none); null for the default, all of them
     * (narrowed by the FAPI 2.0 profile when the configuration sets it).
     *
     * @throws InvalidArgumentException when the list is empty or names another algorithm
     */
    public void setAccessTokenSigningAlgorithms(@Nullable String algorithms) {
        set(Option.ACCESS_TOKEN_SIGNING_ALGS, algorithms);
    }

    /**
     * Whether {@link #verifyAccessToken} also accepts a JWT access token whose {@code typ} is {@code JWT}
     * (providers that predate RFC 9068); such a token need not carry sub, client_id, iat or jti. Default
     * false: only {@code at+jwt}.
     */
    public void setAcceptTypJwt(boolean accept) {
        set(Option.ACCEPT_TYP_JWT, accept ? "true" : "false");
    }

    /**
     * {@link #introspect(String, String)} without a token type hint.
     *
     * @throws ConfigurationException when neither the configuration nor the metadata names the endpoint
     * @throws ClientRejectedException when the provider refuses the client (401 with invalid_client)
     * @throws HttpStatusException for another 4xx without an OAuth error (django-oauth-toolkit's 403)
     * @throws AuthorizationErrorException for another OAuth error, with its fields
     * @throws TemporarilyUnavailableException for 5xx and 429
     * @throws InvalidResponseException when the answer is not an introspection answer
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull TokenInfo introspect(@NonNull String token) {
        return introspect(token, null);
    }

    /**
     * Asks the provider about {@code token} (RFC 7662 §2.1): a POST to the introspection endpoint (configured,
     * see {@link Config.Builder#introspectionEndpoint}, else discovered) with the client's authentication, the
     * token and, when not null, {@code tokenTypeHint} ({@code "access_token"}, {@code "refresh_token"}). An
     * inactive token is an answer, not an exception: {@link TokenInfo#active()} is false. With the cache on
     * ({@link #setIntrospectionCacheMaxAge}), an answer kept for the same token is handed out without a
     * request. Blocks on the network.
     *
     * @throws ConfigurationException when neither the configuration nor the metadata names the endpoint
     * @throws ClientRejectedException when the provider refuses the client (401 with invalid_client)
     * @throws HttpStatusException for another 4xx without an OAuth error (django-oauth-toolkit's 403)
     * @throws AuthorizationErrorException for another OAuth error, with its fields
     * @throws TemporarilyUnavailableException for 5xx and 429
     * @throws InvalidResponseException when the answer is not a JSON object with a boolean {@code active}, or a
     *     member has the wrong type
     * @throws ResponseTooLargeException when the answer is over 64 KiB
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws TransportException when the provider can't be reached
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public @NonNull TokenInfo introspect(@NonNull String token, @Nullable String tokenTypeHint) {
        byte[] tokenBytes = Utf8.encode(Objects.requireNonNull(token, "token"));
        byte[] hintBytes = Utf8.encode(tokenTypeHint);
        return new TokenInfo(HostCallFailure.attach(
                () -> call(h -> Native.resourceServerIntrospect(h, tokenBytes, hintBytes))));
    }

    /**
     * Verifies a JWT access token locally (RFC 9068 §4) with the provider's key set (cached as for ID tokens):
     * its {@code typ} is {@code at+jwt} (or {@code JWT}, see {@link #setAcceptTypJwt}), it is signed with an
     * allowed algorithm by a key of the set, its {@code iss} is the configured issuer, its {@code aud} contains
     * this resource server's audience, {@code exp} has not passed and {@code nbf} and {@code iat} are not in
     * the future (give or take the configured clock tolerance), and an {@code at+jwt} carries sub, client_id,
     * iat and jti. Blocks on the network only to fetch the key set.
     *
     * @throws TokenInvalidException when a check fails, with the check in the message (not a JWT; typ;
     *     algorithm; signature; issuer; audience; times; a missing claim)
     * @throws TransportException when the key set can't be fetched
     * @throws IllegalArgumentException when {@code token} contains a NUL character
     */
    public @NonNull TokenInfo verifyAccessToken(@NonNull String token) {
        byte[] tokenBytes = Utf8.encode(Objects.requireNonNull(token, "token"));
        return new TokenInfo(call(h -> Native.resourceServerVerifyAccessToken(h, tokenBytes)));
    }

    /**
     * The JWS algorithms a DPoP proof may be signed with (RFC 9449 §4.3 check 5), separated by spaces, each
     * one of RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 ES512 EdDSA; null for the default, all of them.
     *
     * @throws InvalidArgumentException when the list is empty or names another algorithm
     */
    public void setDPoPSigningAlgorithms(@Nullable String algorithms) {
        set(Option.DPOP_SIGNING_ALGS, algorithms);
    }

    /**
     * Whether every DPoP proof must carry this server's current nonce ({@link #dpopNonce()}, RFC 9449 §9);
     * a proof without it, or with an old one, is refused with {@code use_dpop_nonce}. Default false.
     */
    public void setDPoPRequireNonce(boolean require) {
        set(Option.DPOP_REQUIRE_NONCE, require ? "true" : "false");
    }

    /**
     * Checks DPoP proofs with {@code cache} from now on, shared with the other resource servers using it (its
     * own cache, and the proofs it saw, are dropped).
     */
    public void setDPoPReplayCache(@NonNull DPoPReplayCache cache) {
        Objects.requireNonNull(cache, "cache").withHandle(c -> call(h -> {
            Native.resourceServerSetDpopReplayCache(h, c);
            return null;
        }));
    }

    /**
     * The nonce to send now in the {@code DPoP-Nonce} response header (RFC 9449 §9): with a
     * {@code use_dpop_nonce} refusal, or with any answer so the client has it for its next proof. It changes
     * every window of the replay cache.
     */
    public @NonNull String dpopNonce() {
        return Utf8.decode(call(Native::resourceServerDpopNonce));
    }

    /**
     * Checks the DPoP proof of one request (RFC 9449 §4.3, §7.1) bound to the key whose RFC 7638 thumbprint is
     * {@code jkt} (the access token's {@code cnf.jkt}). {@code proof} is the request's one {@code DPoP}
     * header, {@code method} and {@code url} the request as the server received it (query and fragment are
     * ignored; both URLs are compared after RFC 3986 normalisation), {@code accessToken} the token of its
     * {@code Authorization: DPoP} header. An accepted proof's {@code jti} is remembered; no network.
     *
     * @throws TokenInvalidException when the proof is refused: {@link TelenoridException#oauthError()} is the
     *     error for the {@code WWW-Authenticate: DPoP} challenge ({@code invalid_dpop_proof} or
     *     {@code use_dpop_nonce}) and {@link TelenoridException#oauthErrorDescription()} names the rule
     * @throws TemporarilyUnavailableException when the replay cache is full of live proofs (answer 503)
     * @throws InvalidArgumentException when {@code method} is no HTTP method or {@code url} no http(s) URL
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public void verifyDPoP(@NonNull String proof, @NonNull String method, @NonNull String url,
            @NonNull String accessToken, @NonNull String jkt) {
        byte[] jktBytes = Utf8.encode(Objects.requireNonNull(jkt, "jkt"));
        verifyDPoP(proof, method, url, accessToken, jktBytes, 0);
    }

    /**
     * {@link #verifyDPoP(String, String, String, String, String)} with the key the token is bound to taken from
     * {@code info} ({@link TokenInfo}'s {@code cnf.jkt}, from {@link #verifyAccessToken} or {@link #introspect}).
     *
     * @throws TokenInvalidException as above, and with {@code invalid_token} when the token is not bound to a
     *     key (no {@code cnf.jkt})
     * @throws TemporarilyUnavailableException when the replay cache is full of live proofs (answer 503)
     * @throws InvalidArgumentException when {@code method} is no HTTP method or {@code url} no http(s) URL
     * @throws IllegalArgumentException when a string contains a NUL character
     */
    public void verifyDPoP(@NonNull String proof, @NonNull String method, @NonNull String url,
            @NonNull String accessToken, @NonNull TokenInfo info) {
        Objects.requireNonNull(info, "info").withHandle(i -> {
            verifyDPoP(proof, method, url, accessToken, null, i);
            return null;
        });
    }

    private void verifyDPoP(String proof, String method, String url, String accessToken, byte[] jkt, long info) {
        byte[] proofBytes = Utf8.encode(Objects.requireNonNull(proof, "proof"));
        byte[] methodBytes = Utf8.encode(Objects.requireNonNull(method, "method"));
        byte[] urlBytes = Utf8.encode(Objects.requireNonNull(url, "url"));
        byte[] tokenBytes = Utf8.encode(Objects.requireNonNull(accessToken, "accessToken"));
        call(h -> {
            Native.resourceServerVerifyDpop(h, proofBytes, methodBytes, urlBytes, tokenBytes, jkt, info);
            return null;
        });
    }
}
