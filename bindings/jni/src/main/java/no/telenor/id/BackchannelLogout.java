package no.telenor.id;

import java.util.Objects;

/**
 * Validates the logout tokens a provider sends when it ends a user's session
 * ({@code telenorid_backchannel_logout}, OpenID Connect Back-Channel Logout 1.0). The provider POSTs the token
 * (form field {@code logout_token}, §2.5) to the client's {@code backchannel_logout_uri}, which the app
 * serves: it hands the token to {@link #validate}, answers 200 when it is valid and 400 when not (§2.8), and
 * signs out locally what the token names with {@link Accounts#backchannelLogout} or
 * {@link AuthState#backchannelLogout}. Nothing is revoked at the provider: it ended the session itself.
 * Remembers the {@code jti} of each token it accepted, so a replay is refused. Safe to share between threads.
 * Keeps its client alive, in Java and natively.
 */
public final class BackchannelLogout extends NativeObject {
    /** The C values of telenorid_backchannel_logout_option. */
    enum Option {
        MAX_AGE_S(1);

        final int code;

        Option(int code) {
            this.code = code;
        }
    }

    private final Client client;

    /**
     * Creates a validator of {@code client}'s logout tokens: signed by its provider (the client's
     * {@code jwks_uri} and key-set cache; an HS* token with the client secret) with an algorithm its ID tokens
     * may use ({@link Config.Key#ID_TOKEN_SIGNING_ALGS}, else the provider's advertised ones; narrowed by
     * the FAPI 2.0 profile), for its issuer and client id. Makes no network call.
     */
    public BackchannelLogout(@NonNull Client client) {
        this(client, newHandle(client));
    }

    private BackchannelLogout(Client client, long handle) {
        // The native validator keeps the native client, and with it the client's signers, alive: it counts as
        // an owner of them, released with the handle (the cleaner must not reach `this`).
        super(handle, client.signers().releasingAfter(Native::backchannelLogoutFree));
        this.client = client;
    }

    private static long newHandle(Client client) {
        return Objects.requireNonNull(client, "client").newSignerOwner(Native::backchannelLogoutNew);
    }

    /** The client whose logout tokens this validates. */
    public @NonNull Client client() {
        return client;
    }

    /**
     * Accepts a logout token for {@code seconds} after its {@code iat} (1 to 86400; default 300). A token's
     * {@code jti} is remembered for as long (give or take the clock tolerance), so a token is accepted once: its
     * replay within the window is refused, and after it the token is too old. Applies to the validations that
     * start after it.
     *
     * @throws InvalidArgumentException when {@code seconds} is out of range
     */
    public void setMaxAge(int seconds) {
        byte[] value = Utf8.encode(Integer.toString(seconds));
        call(h -> {
            Native.backchannelLogoutSet(h, Option.MAX_AGE_S.code, value);
            return null;
        });
    }

    /**
     * Validates {@code logoutToken} as Back-Channel Logout 1.0 §2.6 lists: a JWS in compact form (an encrypted
     * one is refused) whose {@code typ}, when present, is {@code logout+jwt} (or {@code application/logout+jwt},
     * or the generic {@code JWT}), signed as the client's ID tokens are (never {@code none}), with {@code iss}
     * the configured issuer, {@code aud} containing the client id, {@code iat} neither in the future nor older
     * than {@link #setMaxAge the maximum age} (give or take the configured clock tolerance), {@code exp} (when
     * present) not passed, a {@code jti}, an {@code events} object with the back-channel logout event, a
     * {@code sub} or a {@code sid} or both, and no {@code nonce}; last, a {@code jti} this validator accepted
     * within the window is refused (§2.6 step 8). Remembers at most 4096 {@code jti}s. Blocks on the network
     * only to fetch the key set (or discover it).
     *
     * @throws TokenInvalidException when a rule is broken, with the rule in the message (encrypted; not a JWS;
     *     typ; algorithm; signature; iss; aud; iat in the future or too old; exp; jti; events; neither sub nor
     *     sid; nonce; replayed)
     * @throws TransportException when the key set can't be fetched
     * @throws IllegalArgumentException when {@code logoutToken} contains a NUL character
     */
    public @NonNull LogoutToken validate(@NonNull String logoutToken) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(logoutToken, "logoutToken"));
        return new LogoutToken(call(h -> Native.backchannelLogoutValidate(h, bytes)));
    }
}
