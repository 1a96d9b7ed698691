package no.telenor.id;

/**
 * A device authorization grant under way (RFC 8628), made by {@link Client#startDeviceAuthorization}: show
 * {@link #userCode()} and {@link #verificationUri()} (or {@link #verificationUriComplete()} as a QR code),
 * then {@link #awaitApproval()} while the user approves on another device. Any thread; one wait at a time.
 * Keeps its client alive.
 */
public final class DeviceAuthorization extends NativeObject {
    /** The C values of telenorid_device_field. */
    enum Field {
        USER_CODE(1),
        VERIFICATION_URI(2),
        VERIFICATION_URI_COMPLETE(3);

        final int code;

        Field(int code) {
            this.code = code;
        }
    }

    private final Client client;

    DeviceAuthorization(long handle, Client client) {
        super(handle, client.signers().releasingAfter(Native::deviceAuthorizationFree));
        this.client = client;
    }

    private @Nullable String get(Field field) {
        return call(h -> Utf8.decode(Native.deviceAuthorizationGet(h, field.code)));
    }

    /** The code the user types at {@link #verificationUri()}. Show it; don't log it. */
    public @NonNull String userCode() {
        String code = get(Field.USER_CODE);
        return code == null ? "" : code;
    }

    /** Where the user types the code (https). */
    public @NonNull String verificationUri() {
        String uri = get(Field.VERIFICATION_URI);
        return uri == null ? "" : uri;
    }

    /** The verification URI with the code in it, for a QR code; null when the provider gives none. */
    public @Nullable String verificationUriComplete() {
        return get(Field.VERIFICATION_URI_COMPLETE);
    }

    /** When the client gives up waiting, in Unix seconds: the provider's expires_in, at most an hour. */
    public long expiresAt() {
        return call(Native::deviceAuthorizationExpiresAt);
    }

    /** Seconds between polls now: the provider's interval (5 when it gave none), grown by each slow_down. */
    public int interval() {
        return call(Native::deviceAuthorizationInterval);
    }

    /**
     * Blocks, without using the CPU between polls, until the user approves, and returns the signed-in state
     * as {@link Client#exchangeCode} does. A failed wait may be started again.
     *
     * @throws AuthorizationErrorException when the user refused ({@code access_denied})
     * @throws ExpiredException when the code expired before the approval
     * @throws CancelledException after {@link Client#cancel()} from another thread
     * @throws ConsumedException after a successful wait, or while another thread waits
     */
    public @NonNull AuthState awaitApproval() {
        return HostCallFailure.attach(
                () -> client.newAuthState(c -> call(Native::deviceAuthorizationWait)));
    }
}
