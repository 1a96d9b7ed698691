package no.telenor.id;

import java.util.Objects;

/**
 * A client-initiated backchannel authentication under way (OpenID CIBA Core 1.0), made by
 * {@link Client#startBackchannelAuthentication}: the provider is asking the user on their own device, and
 * {@link #awaitApproval()} waits for the answer. In ping mode ({@link Config.Builder#backchannelTokenDeliveryMode}
 * {@code "ping"}) the app's notification endpoint hands each call it receives to {@link #handlePing}, which
 * wakes the wait. Any thread; one wait at a time. Keeps its client alive.
 */
public final class BackchannelAuthentication extends NativeObject {
    private final Client client;

    BackchannelAuthentication(long handle, Client client) {
        super(handle, client.signers().releasingAfter(Native::backchannelAuthFree));
        this.client = client;
    }

    /** The provider's {@code auth_req_id} for this request (not a secret without the client's credentials). */
    public @NonNull String authReqId() {
        String id = call(h -> Utf8.decode(Native.backchannelAuthId(h)));
        return id == null ? "" : id;
    }

    /** When the client gives up waiting ({@link ExpiredException}), in Unix seconds: the provider's expires_in. */
    public long expiresAt() {
        return call(Native::backchannelAuthExpiresAt);
    }

    /** Seconds between polls now: the provider's interval (5 when it gave none), grown by each slow_down. */
    public int interval() {
        return call(Native::backchannelAuthInterval);
    }

    /**
     * Ping mode (CIBA Core §10.2): checks a call the app's notification endpoint received and wakes
     * {@link #awaitApproval()}, which then asks the token endpoint at once; answer the provider 204.
     * {@code authorization} is the call's Authorization header, which must be {@code Bearer} and this
     * request's notification token, and {@code body} its JSON body, which must name this request's
     * {@code auth_req_id}. A refused ping changes nothing. Any thread.
     *
     * @throws StateMismatchException for another token or request (answer 401 or 400)
     * @throws MalformedException when {@code body} is not such JSON
     * @throws ConfigurationException when the request was started in poll mode
     */
    public void handlePing(@NonNull String authorization, @NonNull String body) {
        byte[] header = Utf8.encode(Objects.requireNonNull(authorization, "authorization"));
        byte[] json = Utf8.encode(Objects.requireNonNull(body, "body"));
        call(h -> {
            Native.backchannelAuthHandlePing(h, header, json);
            return null;
        });
    }

    /**
     * Blocks, without using the CPU between polls, until the user answers on their device, and returns the
     * signed-in state as {@link Client#exchangeCode} does (its ID token validated). A failed wait may be
     * started again.
     *
     * @throws AuthorizationErrorException when the user refused ({@code access_denied}); nothing is stored
     * @throws ExpiredException when the request expired before the approval
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws ConsumedException after a successful wait, or while another thread waits
     * @throws TokenInvalidException when the ID token fails validation
     */
    public @NonNull AuthState awaitApproval() {
        return HostCallFailure.attach(() -> client.newAuthState(c -> call(Native::backchannelAuthWait)));
    }
}
