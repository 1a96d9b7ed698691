package no.telenor.id;

import java.util.Objects;

/**
 * The tokens of a signed-in user ({@code telenorid_auth_state}), from {@link Client#exchangeCode} or
 * {@link Client#restore}. Safe to share between threads: when several ask for a fresh token that needs a
 * refresh, one refresh goes out and all get its outcome. The network methods block.
 *
 * <p>Persist it with {@link #serialize()} (in Keystore-backed storage: it holds the refresh token) from a
 * {@link #setChangeListener change listener}. {@link #close()} wipes the tokens in native memory and
 * releases the listener; keeps its {@link Client} alive until then.
 */
public final class AuthState extends NativeObject {
    /** The parts of the state {@link #get} reads ({@code TELENORID_TOKEN_*}). */
    public enum Field {
        ACCESS_TOKEN(1),
        REFRESH_TOKEN(2),
        ID_TOKEN(3),
        /** The validated ID token claims as a JSON object. */
        ID_TOKEN_CLAIMS(4),
        SCOPE(5),
        TOKEN_TYPE(6);

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

    private AuthState(long handle, Client client, ListenerSlot listener) {
        // The free function frees the listener with the state (the cleaner must not reach `this`).
        super(handle, h -> Native.authStateFree(h, listener.value));
        this.client = client;
        this.listener = listener;
    }

    static AuthState create(long handle, Client client) {
        return new AuthState(handle, client, new ListenerSlot());
    }

    /** The client this state belongs to. */
    public Client client() {
        return client;
    }

    /**
     * An access token valid for at least the configured margin, refreshing first when needed.
     *
     * @throws AuthorizationLostException when the provider refused the refresh token: now signed out
     * @throws NotSignedInException when the state is signed out
     * @throws TransportException when the provider can't be reached; the state is as it was
     */
    public String freshAccessToken() {
        return call(h -> Utf8.decode(Native.authStateFreshAccessToken(h)));
    }

    /** Refreshes now, with the outcomes of {@link #freshAccessToken()}. A rotated refresh token replaces the old. */
    public void refresh() {
        call(h -> {
            Native.authStateRefresh(h);
            return null;
        });
    }

    /** True while the state holds tokens. */
    public boolean isSignedIn() {
        return call(Native::authStateIsSignedIn);
    }

    /** One part of the state, or null when absent or signed out. */
    public String get(Field field) {
        int code = Objects.requireNonNull(field, "field").code();
        return call(h -> Utf8.decode(Native.authStateGet(h, code)));
    }

    /** The validated ID token claims as a JSON object, or null when signed out. */
    public String idTokenClaims() {
        return get(Field.ID_TOKEN_CLAIMS);
    }

    /** The access token's expiry in Unix seconds; 0 when the provider did not say or signed out. */
    public long expiresAt() {
        return call(Native::authStateExpiresAt);
    }

    /**
     * The userinfo claims as a JSON object, fetched with a fresh access token (a signed response is
     * verified first and its {@code sub} must be the ID token's).
     */
    public String userinfo() {
        return call(h -> Utf8.decode(Native.authStateUserinfo(h)));
    }

    /** Revokes the refresh token (or the access token) at the provider, then signs the state out. */
    public void revoke() {
        call(h -> {
            Native.authStateRevoke(h);
            return null;
        });
    }

    /**
     * The RP-initiated logout URL to open in the browser; either argument may be null. Does not sign the
     * state out.
     */
    public String endSessionUrl(String postLogoutRedirectUri, String logoutState) {
        byte[] redirect = Utf8.encode(postLogoutRedirectUri);
        byte[] state = Utf8.encode(logoutState);
        return call(h -> Utf8.decode(Native.authStateEndSessionUrl(h, redirect, state)));
    }

    /** Versioned JSON for {@link Client#restore}. Holds the refresh token: keep it in secure storage. */
    public String serialize() {
        return call(h -> Utf8.decode(Native.authStateSerialize(h)));
    }

    /**
     * Sets the listener told after every change to persist (null removes it); replaces the previous one.
     * Waits for calls in flight on this state. The bridge holds the listener strongly until it is replaced
     * or the state closed.
     *
     * @throws IllegalStateException when called from inside the listener
     */
    public void setChangeListener(ChangeListener listener) {
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
