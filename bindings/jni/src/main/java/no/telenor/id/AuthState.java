package no.telenor.id;

import java.util.Arrays;
import java.util.Objects;

/**
 * The tokens of a signed-in user ({@code telenorid_auth_state}), from {@link Client#exchangeCode},
 * {@link Client#restore} or {@link Client#openAuthStateFile}. Safe to share between threads: when several ask for a fresh token that needs a
 * refresh, one refresh goes out and all get its outcome. The network methods block.
 *
 * <p>Persist it with {@link #serialize()} (in Keystore-backed storage: it holds the refresh token) from a
 * {@link #setChangeListener change listener}, or let the library keep it in a file shared by several
 * processes ({@link #bindFile}). {@link #close()} wipes the tokens in native memory and
 * releases the listener; keeps its {@link Client} alive until then (natively too, with the DPoP signer its
 * sign-in used, even after the client is closed).
 */
public final class AuthState extends NativeObject {
    /** The parts of the state {@link #get} reads ({@code TELENORID_TOKEN_*}). */
    public enum Field {
        /** The access token. */
        ACCESS_TOKEN(1),
        /** The refresh token, when the provider issued one. */
        REFRESH_TOKEN(2),
        /** The ID token as the provider sent it (a JWT). */
        ID_TOKEN(3),
        /** The validated ID token claims as a JSON object. */
        ID_TOKEN_CLAIMS(4),
        /** The granted scope, space-separated. */
        SCOPE(5),
        /** {@code "Bearer"} or {@code "DPoP"}, as the provider spelled it. */
        TOKEN_TYPE(6),
        /**
         * The RFC 7638 thumbprint of the DPoP key the tokens are bound to (a token's {@code cnf.jkt},
         * RFC 9449 §6).
         */
        DPOP_THUMBPRINT(7),
        /** The granted {@code authorization_details} (RFC 9396 §7), as JSON. */
        AUTHORIZATION_DETAILS(8),
        /**
         * The device secret of OpenID Connect Native SSO 1.0 (§3.4), a secret: with the ID token, what lets the
         * vendor's other apps sign the user in ({@link Client#nativeSso}).
         */
        DEVICE_SECRET(9);

        private final int code;

        Field(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    /** The native change listener handle (0: none); guarded by the handle's write lock. */
    private static final class ListenerSlot {
        long value;
    }

    private final Client client;
    private final ListenerSlot listener;

    private AuthState(long handle, Client client, Client.Signers signers, ListenerSlot listener) {
        // The free function frees the listener with the state, then gives up the state's hold on the client's
        // DPoP signers (the cleaner must not reach `this`).
        super(handle, h -> {
            Native.authStateFree(h, listener.value);
            signers.release();
        });
        this.client = client;
        this.listener = listener;
    }

    /** A state {@link Client} made, already counted as an owner of {@code signers}. */
    static AuthState create(long handle, Client client, Client.Signers signers) {
        return new AuthState(handle, client, signers, new ListenerSlot());
    }

    /** The client this state belongs to. */
    public @NonNull Client client() {
        return client;
    }

    /**
     * An access token valid for at least the configured margin, refreshing first when needed.
     *
     * @throws AuthorizationLostException when the provider refused the refresh token: now signed out
     * @throws NotSignedInException when the state is signed out
     * @throws ClientRejectedException when the provider refused the client (its credentials); still signed in
     * @throws TransportException when the provider can't be reached or answered 5xx or 429
     *     ({@link TemporarilyUnavailableException}, with {@link TelenoridException#retryAfter()}); the state is
     *     as it was
     */
    public @NonNull String freshAccessToken() {
        return HostCallFailure.attach(() -> call(h -> Utf8.decode(Native.authStateFreshAccessToken(h))));
    }

    /** Refreshes now, with the outcomes of {@link #freshAccessToken()}. A rotated refresh token replaces the old. */
    public void refresh() {
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateRefresh(h);
            return null;
        }));
    }

    /** True while the state holds tokens. */
    public boolean isSignedIn() {
        return call(Native::authStateIsSignedIn);
    }

    /** One part of the state, or null when absent or signed out. */
    public @Nullable String get(@NonNull Field field) {
        int code = Objects.requireNonNull(field, "field").code();
        return call(h -> Utf8.decode(Native.authStateGet(h, code)));
    }

    /** The validated ID token claims as a JSON object, or null when signed out. */
    public @Nullable String idTokenClaims() {
        return get(Field.ID_TOKEN_CLAIMS);
    }

    /** The thumbprint of the DPoP key the tokens are bound to ({@link Field#DPOP_THUMBPRINT}), or null. */
    public @Nullable String dpopThumbprint() {
        return get(Field.DPOP_THUMBPRINT);
    }

    /** What the provider granted (RFC 9396 §7) as a JSON array, or null. */
    public @Nullable String authorizationDetails() {
        return get(Field.AUTHORIZATION_DETAILS);
    }

    /**
     * The device secret (OpenID Connect Native SSO 1.0 §3.4, {@link Field#DEVICE_SECRET}), or null when the
     * sign-in did not ask for {@code device_sso}. A secret: keep it only in the platform's shared storage.
     */
    public @Nullable String deviceSecret() {
        return get(Field.DEVICE_SECRET);
    }

    /** The access token's expiry in Unix seconds; 0 when the provider did not say or signed out. */
    public long expiresAt() {
        return call(Native::authStateExpiresAt);
    }

    /**
     * The userinfo claims as a JSON object, fetched with a fresh access token (a signed response is
     * verified first and its {@code sub} must be the ID token's).
     */
    public @NonNull String userinfo() {
        return HostCallFailure.attach(() -> call(h -> Utf8.decode(Native.authStateUserinfo(h))));
    }

    /**
     * "Is the grant still alive?", e.g. when the app comes back to the foreground. Asks the userinfo endpoint
     * with the current access token, which rotates nothing, and refreshes only when it must (the access
     * token expired or was refused, userinfo answered 403, or the provider has no userinfo endpoint).
     * Returns normally when alive. Any thread; blocks on the network.
     *
     * @throws AuthorizationLostException when the provider refused the grant: now signed out
     * @throws NotSignedInException when the state was signed out already
     * @throws TransportException when the provider can't be reached ({@link TelenoridException#isTransient()}
     *     says whether to try again); the state is as it was
     */
    public void check() {
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateCheck(h);
            return null;
        }));
    }

    /**
     * Reports that a resource server refused the current access token with 401 (RFC 6750 §3.1
     * {@code invalid_token}), so that the next {@link #freshAccessToken()} refreshes instead of handing it
     * out again. Same as {@link #accessTokenRejected(String)} with the token the state holds now; prefer that
     * one when the call that failed may have raced a refresh. No network call; any thread.
     */
    public void accessTokenRejected() {
        accessTokenRejected(null);
    }

    /**
     * Reports that a resource server refused {@code accessToken} with 401 (RFC 6750 §3.1), so that the next
     * {@link #freshAccessToken()} refreshes instead of handing it out again. A token the state no longer
     * holds (another thread refreshed meanwhile) changes nothing, so late reports cause no extra refresh.
     * Null means the current token. No network call; any thread.
     */
    public void accessTokenRejected(@Nullable String accessToken) {
        byte[] token = Utf8.encode(accessToken);
        call(h -> {
            Native.authStateAccessTokenRejected(h, token);
            return null;
        });
    }

    /**
     * The headers for one request of the app's own to a resource server ({@code method}, e.g.
     * {@code "GET"}, and the full {@code url} it goes to), with a fresh access token (refreshed first as
     * {@link #freshAccessToken()} does): for a DPoP-bound token {@code "DPoP <token>"} with a proof for
     * this method and URL bound to the token (RFC 9449 §7), for a Bearer token {@code "Bearer <token>"}
     * and no proof. When the resource answers 401 with {@code WWW-Authenticate: DPoP
     * error="use_dpop_nonce"}, call again with its {@code DPoP-Nonce} header's value as
     * {@code resourceNonce} (else null) and send once more; the nonce is kept for that server's later
     * requests. Any thread; may block on a refresh.
     *
     * @throws NotSignedInException when the state is signed out
     * @throws InvalidArgumentException when the app's {@link HostKeySigner} failed (what it threw is the cause)
     * @throws AuthorizationLostException when the refresh this needed was refused: now signed out
     * @throws TransportException when a refresh was needed and the provider can't be reached
     */
    public @NonNull RequestHeaders requestHeaders(@NonNull String method, @NonNull String url,
            @Nullable String resourceNonce) {
        return requestHeaders(this, Native::authStateRequestHeaders, method, url, resourceNonce);
    }

    /** A holder's {@code ..._request_headers} native: an auth state's, or a machine token's. */
    interface HeadersNative {
        byte[][] headers(long handle, byte[] method, byte[] url, byte[] resourceNonce);
    }

    /** A holder's {@code ..._resource_answered} native: an auth state's, or a machine token's. */
    interface AnsweredNative {
        boolean answered(long handle, byte[] url, int status, byte[] wwwAuthenticate, byte[] dpopNonce,
                byte[] authorizationSent);
    }

    /** {@link #requestHeaders} of {@code holder}, whose native {@code headers} is. */
    static RequestHeaders requestHeaders(NativeObject holder, HeadersNative headers, String method, String url,
            String resourceNonce) {
        byte[] methodBytes = Utf8.encode(Objects.requireNonNull(method, "method"));
        byte[] urlBytes = Utf8.encode(Objects.requireNonNull(url, "url"));
        byte[] nonce = Utf8.encode(resourceNonce);
        byte[][] values = HostCallFailure.attach(
                () -> holder.call(h -> headers.headers(h, methodBytes, urlBytes, nonce)));
        return new RequestHeaders(Utf8.decode(values[0]), Utf8.decode(values[1]));
    }

    /** {@link #resourceAnswered} of {@code holder}, whose native {@code answered} is; the sent value is wiped. */
    static boolean resourceAnswered(NativeObject holder, AnsweredNative answered, String url, int status,
            String wwwAuthenticate, String dpopNonce, String authorizationSent) {
        byte[] urlBytes = Utf8.encode(Objects.requireNonNull(url, "url"));
        byte[] challenges = Utf8.encode(wwwAuthenticate);
        byte[] nonce = Utf8.encode(dpopNonce);
        byte[] sent = Utf8.encode(Objects.requireNonNull(authorizationSent, "authorizationSent"));
        try {
            return holder.call(h -> answered.answered(h, urlBytes, status, challenges, nonce, sent));
        } finally {
            Arrays.fill(sent, (byte) 0);
        }
    }

    /**
     * Whether to send a request of the app's own once more, given the resource server's answer to it: its
     * {@code status}, its {@code WWW-Authenticate} header(s) (several joined with ", "; null when none), its
     * {@code DPoP-Nonce} header (null when none) and the {@code Authorization} value the request carried
     * (from {@link #requestHeaders}). True for a 401 refusing the token (reported, so the next
     * {@link #requestHeaders} refreshes) or asking for the DPoP nonce it gave (kept for that server, RFC 9449
     * §9); a nonce on any answer is kept. Retry once, with new {@link #requestHeaders}. No network call;
     * any thread.
     */
    public boolean resourceAnswered(@NonNull String url, int status, @Nullable String wwwAuthenticate,
            @Nullable String dpopNonce, @NonNull String authorizationSent) {
        return resourceAnswered(this, Native::authStateResourceAnswered, url, status, wwwAuthenticate, dpopNonce,
                authorizationSent);
    }

    /**
     * Signs the state out, then revokes the refresh token (or, without one, the access token) at the
     * provider (RFC 7009). Signing out first means a refresh in flight cannot bring the grant back; when the
     * revocation fails its exception is thrown and the state stays signed out, as the user asked.
     *
     * @throws NotSignedInException when the state was signed out already
     * @throws TransportException when the revocation could not be delivered (the state is signed out anyway)
     */
    public void revoke() {
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateRevoke(h);
            return null;
        }));
    }

    /**
     * Signs the state out here, revoking nothing at the provider ({@link #revoke} revokes): the tokens are wiped
     * from memory, a refresh in flight loses to the sign-out (its tokens are neither kept nor announced), and a
     * state bound to a file or store records the sign-out there under its update lock, so other processes take
     * it up (when the record can't be written, the state signs out in memory only). The change listener runs
     * once when the state was signed in; a state signed out already stays so. Makes no network call. Since
     * 0.7.0.
     */
    public void signOut() {
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateSignOut(h);
            return null;
        }));
    }

    /**
     * Signs the state out as {@link #signOut()} does when {@code token} names its sign-in (OpenID Connect
     * Back-Channel Logout 1.0 §2.7): the ID token's {@code iss}, and the token's {@code sub} and {@code sid},
     * each when it has one, equal to the ID token's. Returns whether it did; a state signed out already, or
     * without an ID token, is not named. Revokes nothing. Since 0.7.0.
     */
    public boolean backchannelLogout(@NonNull LogoutToken token) {
        Objects.requireNonNull(token, "token");
        return HostCallFailure.attach(
                () -> call(s -> token.call(t -> Native.authStateBackchannelLogout(s, t)))) == 1;
    }

    /**
     * The RP-initiated logout URL to open in the browser; either argument may be null. Does not sign the
     * state out.
     */
    public @NonNull String endSessionUrl(@Nullable String postLogoutRedirectUri, @Nullable String logoutState) {
        byte[] redirect = Utf8.encode(postLogoutRedirectUri);
        byte[] state = Utf8.encode(logoutState);
        return call(h -> Utf8.decode(Native.authStateEndSessionUrl(h, redirect, state)));
    }

    /**
     * Keeps the state in the file at {@code path} from now on, for when several processes share one
     * sign-in (an app and its widget, two runs of a command line tool). The file is written now and after
     * every change, created with mode 0600 and replaced atomically; {@code path + ".lock"} beside it holds
     * an exclusive {@code flock()} during every refresh, which reads the file first and takes a refresh
     * another process already made instead of redeeming the same refresh token twice (a provider that
     * rotates refresh tokens revokes the whole grant on reuse, RFC 9700 §4.14.2); {@code path + ".update.lock"}
     * is held briefly while the file is read and written, so a sign-out recorded there wins over another
     * process's refresh in flight. Waits for either lock end after the configured total timeout with
     * {@link TemporarilyUnavailableException}. The directory must exist. Any thread. See
     * {@link Client#openAuthStateFile}.
     *
     * @throws ConfigurationException when the file can't be written (the message names the system's reason)
     */
    public void bindFile(@NonNull String path) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(path, "path"));
        call(h -> {
            Native.authStateBindFile(h, bytes);
            return null;
        });
    }


    /**
     * Keeps the state in record {@code key} of the app's {@code store} from now on, as {@link #bindFile} keeps
     * it in a file: written now and after every change, refreshed once between all the threads and processes
     * sharing the record. Before a refresh request leaves, the record gets a marker that the answer's state
     * replaces; a refresh after one whose process stopped, refused by the provider, throws
     * {@link RotationPossiblyLostException}. Any thread.
     *
     * @throws StoreFailedException when the store failed (what it threw is the cause)
     * @throws InvalidArgumentException for a key that is not 1 to 128 of {@code A-Z a-z 0-9 . _ -}
     */
    public void bindStore(@NonNull Store store, @NonNull String key) {
        StoreCall call = new StoreCall(Objects.requireNonNull(store, "store"));
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateBindStore(h, call, null, keyBytes);
            return null;
        }));
    }

    /** {@link #bindStore(Store, String)} with the library's file store: {@code <directory>/<key>.json}. */
    public void bindStore(@NonNull DirectoryStore store, @NonNull String key) {
        byte[] directory = Utf8.encode(Objects.requireNonNull(store, "store").directory());
        byte[] keyBytes = Utf8.encode(Objects.requireNonNull(key, "key"));
        call(h -> {
            Native.authStateBindStore(h, null, directory, keyBytes);
            return null;
        });
    }

    /**
     * Writes the state to the store or file it is bound to now: after a refresh threw
     * {@link StoreFailedException} (its new tokens are kept in memory), before the app goes to the background
     * or exits. What another process saved since is taken up, not overwritten. Makes no network call. Any
     * thread. Since 0.6.0.
     *
     * @throws StoreFailedException when the store still refuses (what it threw is the cause)
     * @throws InvalidArgumentException when the state is bound to no store or file
     */
    public void save() {
        HostCallFailure.attach(() -> call(h -> {
            Native.authStateSave(h);
            return null;
        }));
    }

    /**
     * The state as versioned JSON, which {@link Client#restore} reads back. It holds the refresh token: keep it
     * in the platform's secure storage (Android Keystore-backed storage), never in plain files.
     */
    public @NonNull String serialize() {
        return call(h -> Utf8.decode(Native.authStateSerialize(h)));
    }

    /**
     * Sets the listener told after every change to persist (null removes it); replaces the previous one.
     * Waits for calls in flight on this state. The bridge holds the listener strongly until it is replaced
     * or the state closed.
     *
     * @throws IllegalStateException when called from inside the listener
     */
    public void setChangeListener(@Nullable ChangeListener listener) {
        Runnable runnable = listener == null ? null : () -> {
            try {
                listener.onChange();
            } catch (Throwable thrown) {
                Thread thread = Thread.currentThread();
                thread.getUncaughtExceptionHandler().uncaughtException(thread, thrown);
            }
        };
        ListenerSlot slot = this.listener;
        runExclusive(h -> slot.value = Native.authStateSetChangeListener(h, runnable, slot.value));
    }
}
