package no.telenor.id;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A client for one provider ({@code telenorid_client}): its metadata, keys and HTTP connections. Safe to
 * share between threads: create one per provider and keep it. Its methods block on the network (within the
 * configured timeouts), so call them off the UI thread. Keeps its {@link Config} alive; the
 * {@link AuthState}s made from it keep it alive, in Java and natively: after {@link #close()} they still
 * run their requests, with the DPoP signer their sign-in used.
 */
public final class Client extends NativeObject {
    /**
     * The DPoP signers installed on the client (native handles) and how many native objects may still call
     * them: the native client and every native auth state made from it. An auth state keeps calling the
     * signer its sign-in was made with after the client's signer was replaced or removed, and after the
     * native client was freed (the auth state keeps it alive), so no signer is released before the last
     * of them is freed; a replaced signer lives that long too. The free actions reach this object, never
     * the {@link Client} or {@link AuthState} (the cleaner must not reach those).
     */
    static final class Signers {
        private final List<Long> handles = new ArrayList<>();
        private int owners = 1; // the native client

        synchronized void add(long handle) {
            if (handle != 0) {
                handles.add(handle);
            }
        }

        /** One more native owner; only while another one is alive (under the client's lock). */
        synchronized void retain() {
            owners++;
        }

        /**
         * The free action of a native owner: {@code free} on its handle, then {@link #release()} (a cleaner's
         * action, so it holds the signers and never the Java object).
         */
        NativeObject.Free releasingAfter(NativeObject.Free free) {
            return h -> {
                free.free(h);
                release();
            };
        }

        /** A native owner was freed; the last one releases every signer. */
        synchronized void release() {
            if (--owners == 0) {
                for (long handle : handles) {
                    Native.dpopSignerFree(handle);
                }
                handles.clear();
            }
        }
    }

    private final Config config;
    private final Signers signers;

    /** Creates a client for {@code config}; makes no network call. */
    public Client(@NonNull Config config) {
        this(config, new Signers());
    }

    private Client(Config config, Signers signers) {
        // The free function releases the signers with the handle (the cleaner must not reach `this`).
        super(newHandle(config), h -> {
            Native.clientFree(h);
            signers.release();
        });
        this.config = config;
        this.signers = signers;
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
     * Ends every blocking call of this client and its auth states under way on other threads (discovery,
     * token, userinfo, revocation, pushed requests, refreshes, the waits of device authorizations and
     * backchannel authentications) within 100 ms: they throw
     * {@link CancelledException} and change nothing. Calls that start afterwards run normally. Any thread;
     * never blocks.
     */
    public void cancel() {
        call(h -> {
            Native.clientCancel(h);
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
        long handle = HostCallFailure.attach(() -> call(h -> request.call(r -> Native.clientBuildAuthRequest(h, r))));
        return new PendingAuthorization(handle, request.config());
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
        return HostCallFailure.attach(() -> newAuthState(h -> callback.call(c -> Native.clientExchangeCode(h, c))));
    }

    /**
     * Starts a device authorization grant (RFC 8628) at the device authorization endpoint (configured, else
     * discovered), for {@code request}'s scope, resources, authorization details and extra parameters; null
     * asks for the configuration's scope. Show {@link DeviceAuthorization#userCode()} and
     * {@link DeviceAuthorization#verificationUri()}, then {@link DeviceAuthorization#awaitApproval()}.
     *
     * @throws ProviderUnsupportedException when neither the configuration nor the metadata names the endpoint
     * @throws AuthorizationErrorException when the provider refuses, with its OAuth fields
     * @throws InvalidResponseException when the answer lacks a field or has a hostile one (RFC 8628 §3.2)
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull DeviceAuthorization startDeviceAuthorization(@Nullable AuthorizationRequest request) {
        long handle = HostCallFailure.attach(() -> newSignerOwner(h -> request == null
                ? Native.clientStartDeviceAuthorization(h, 0)
                : request.call(r -> Native.clientStartDeviceAuthorization(h, r))));
        return new DeviceAuthorization(handle, this);
    }

    /**
     * Starts a client-initiated backchannel authentication (OpenID CIBA Core 1.0) at the backchannel
     * authentication endpoint (configured, else discovered): the provider asks the user named by
     * {@code request}'s hint on their own device. {@code request} carries exactly one of
     * {@link AuthorizationRequest#loginHint} (see {@link LoginHints}), {@link AuthorizationRequest#loginHintToken}
     * and {@link AuthorizationRequest#idTokenHint}; its scope (the configuration's when unset) must include
     * {@code openid}; acr_values, binding message, user code, requested expiry, resources, authorization
     * details and extra parameters go too. Then {@link BackchannelAuthentication#awaitApproval()}.
     *
     * @throws InvalidArgumentException for not exactly one hint, or a scope without openid (before any request)
     * @throws ConfigurationException when neither the configuration nor the metadata names the endpoint
     * @throws AuthorizationErrorException when the provider refuses (unknown_user_id, invalid_binding_message,
     *     access_denied...), with its OAuth fields
     * @throws ClientRejectedException when the provider refuses the client
     * @throws InvalidResponseException when the acknowledgement lacks a field or has a hostile one
     * @throws CancelledException after {@link #cancel()} from another thread
     * @throws TransportException when the provider can't be reached
     */
    public @NonNull BackchannelAuthentication startBackchannelAuthentication(@NonNull AuthorizationRequest request) {
        Objects.requireNonNull(request, "request");
        long handle = HostCallFailure.attach(() -> newSignerOwner(h -> request.call(
                r -> Native.clientStartBackchannelAuthentication(h, r))));
        return new BackchannelAuthentication(handle, this);
    }

    /**
     * Signs the user of {@code idToken} in for this client from another app's sign-in (OpenID Connect Native SSO
     * for Mobile Apps 1.0 §4): {@code idToken} and {@code deviceSecret} are that app's
     * ({@link AuthState.Field#ID_TOKEN}, {@link AuthState#deviceSecret()}), read from the platform's shared
     * storage. Checks the pair first (the ID token's issuer, its {@code ds_hash}), then exchanges them at the
     * token endpoint and validates the new ID token as a sign-in's, with its {@code ds_hash} and subject.
     * Blocks on the network.
     *
     * @param scope the scope asked for (must include openid); null: the configuration's
     * @throws InvalidArgumentException when the pair does not match, or the scope lacks openid
     * @throws AuthorizationErrorException when the provider refuses, with its OAuth fields
     * @throws InvalidResponseException when the answer is no access token with an ID token
     * @throws TokenInvalidException when the new ID token fails validation
     * @throws IllegalArgumentException when a value contains a NUL character
     */
    public @NonNull AuthState nativeSso(@NonNull String idToken, @NonNull String deviceSecret,
            @Nullable String scope) {
        byte[] token = Utf8.encode(Objects.requireNonNull(idToken, "idToken"));
        byte[] secret = Utf8.encode(Objects.requireNonNull(deviceSecret, "deviceSecret"));
        byte[] scopes = Utf8.encode(scope);
        return HostCallFailure.attach(() -> newAuthState(h -> Native.clientNativeSso(h, token, secret, scopes)));
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
        return newAuthState(h -> Native.authStateRestore(h, bytes));
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
        return newAuthState(h -> Native.authStateOpenFile(h, bytes));
    }

    /**
     * The state kept in record {@code key} of the app's {@code store}, bound to it as {@link AuthState#bindStore}
     * does: signed out when there is no record yet (one is then written).
     *
     * @throws StoreFailedException when the store failed or holds what is not an auth state
     * @throws ConfigurationException when the record was saved for another issuer or client id
     */
    public @NonNull AuthState openStore(@NonNull Store store, @NonNull String key) {
        StoreCall call = new StoreCall(Objects.requireNonNull(store, "store"));
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        return HostCallFailure.attach(() -> newAuthState(h -> Native.authStateOpenStore(h, call, null, keyBytes)));
    }

    /**
     * The registry of accounts {@code name} in the app's {@code store} (see {@link Accounts}), read now.
     *
     * @throws InvalidArgumentException when {@code name} is not a record key of at most 115 characters
     * @throws MalformedException when the registry's record is not one
     * @throws StoreFailedException when the store failed
     */
    public @NonNull Accounts openAccounts(@NonNull Store store, @NonNull String name) {
        StoreCall call = new StoreCall(Objects.requireNonNull(store, "store"));
        byte[] nameBytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        return new Accounts(HostCallFailure.attach(() -> call(h -> Native.accountsOpen(h, call, null, nameBytes))), this);
    }

    /** {@link #openAccounts(Store, String)} with the library's file store. */
    public @NonNull Accounts openAccounts(@NonNull DirectoryStore store, @NonNull String name) {
        byte[] directory = Utf8.encode(Objects.requireNonNull(store, "store").directory());
        byte[] nameBytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        return new Accounts(call(h -> Native.accountsOpen(h, null, directory, nameBytes)), this);
    }

    /** {@link #openStore(Store, String)} with the library's file store: {@code <directory>/<key>.json}. */
    public @NonNull AuthState openStore(@NonNull DirectoryStore store, @NonNull String key) {
        byte[] directory = Utf8.encode(Objects.requireNonNull(store, "store").directory());
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        return newAuthState(h -> Native.authStateOpenStore(h, null, directory, keyBytes));
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

    /**
     * Makes the client prove possession (DPoP, RFC 9449) with the app's own key for every sign-in from now
     * on, instead of keys the library makes: {@code algorithm} is its JWS algorithm ({@code "ES256"},
     * {@code "PS256"}, {@code "EdDSA"}, or another asymmetric one) and {@code publicJwk} its public key as a
     * JWK (JSON), checked now. Replaces the previous signer for later sign-ins; auth states signed in
     * before keep theirs. An auth state of such a sign-in saves only the key's thumbprint: {@link #restore}
     * and {@link #openAuthStateFile} refuse it until the same key's signer is set here again.
     *
     * <p>The bridge holds {@code signer} strongly (every one ever set) until this client and every
     * {@link AuthState} made from it are closed or collected.
     *
     * @throws InvalidArgumentException when {@code publicJwk} is not a public JWK that verifies
     *     {@code algorithm} (a private JWK, with {@code "d"}, is refused)
     */
    public void setDPoPSigner(@NonNull String algorithm, @NonNull String publicJwk, @NonNull HostKeySigner signer) {
        setSigner(Native::clientSetDPoPSigner, algorithm, publicJwk, signer);
    }

    /**
     * Removes the signer set with {@link #setDPoPSigner}: later sign-ins use keys the library makes when the
     * configuration sets {@link Config.Builder#dpopSigningAlgorithm}, else no DPoP. Auth states signed in
     * with the signer keep using it.
     */
    public void clearDPoPSigner() {
        call(h -> Native.clientSetDPoPSigner(h, null, null, null));
    }

    /**
     * Makes the client sign as itself with the app's own key instead of the configured
     * {@link Config.Builder#clientPrivateKey}: private_key_jwt client assertions (RFC 7523) and signed
     * request objects (RFC 9101). {@code algorithm}, {@code publicJwk} and {@code signer} are as for
     * {@link #setDPoPSigner}; the JWK's {@code kid}, when it has one, names the registered key in the JWS
     * header. With it, a configuration may ask for private_key_jwt without a private key.
     *
     * @throws InvalidArgumentException when {@code publicJwk} is not a public JWK that verifies {@code algorithm}
     * @throws ConfigurationException under the FAPI 2.0 profile, for an algorithm other than PS256, ES256 or EdDSA
     */
    public void setClientSigner(@NonNull String algorithm, @NonNull String publicJwk, @NonNull HostKeySigner signer) {
        setSigner(Native::clientSetClientSigner, algorithm, publicJwk, signer);
    }

    /** Removes the signer set with {@link #setClientSigner}: the client signs with its configured key again. */
    public void clearClientSigner() {
        call(h -> Native.clientSetClientSigner(h, null, null, null));
    }

    /** One of the natives that install a host-held key's signer and return its handle. */
    private interface SignerSetter {
        long set(long client, byte[] algorithm, byte[] publicJwk, HostKeySignerCall signer);
    }

    private void setSigner(SignerSetter setter, String algorithm, String publicJwk, HostKeySigner signer) {
        byte[] algorithmBytes = Utf8.encode(Objects.requireNonNull(algorithm, "algorithm"));
        byte[] jwk = Utf8.encode(Objects.requireNonNull(publicJwk, "publicJwk"));
        HostKeySignerCall signerCall = new HostKeySignerCall(Objects.requireNonNull(signer, "signer"));
        call(h -> {
            signers.add(setter.set(h, algorithmBytes, jwk, signerCall));
            return null;
        });
    }

    /**
     * Makes an auth state under the client's lock, counting it as an owner of the signers first: the client
     * can't be freed meanwhile, so the count never drops to zero while the new state may still sign.
     */
    AuthState newAuthState(Call<Long> make) {
        return AuthState.create(newSignerOwner(make), this, signers);
    }

    /**
     * Makes, under the client's lock, a native object that keeps the native client alive and may sign with
     * its signers (an auth state, a resource server, client credentials, a device or backchannel
     * authentication, which authenticate their polls), counting it as an owner of the signers first; its free
     * action is {@link Signers#releasingAfter} on {@link #signers()}.
     */
    long newSignerOwner(Call<Long> make) {
        return call(h -> {
            signers.retain();
            try {
                return make.call(h);
            } catch (RuntimeException | Error e) {
                signers.release();
                throw e;
            }
        });
    }

    /** The signers' owner count, for the free action of what {@link #newSignerOwner} made. */
    Signers signers() {
        return signers;
    }
}
