package no.telenor.id;

/**
 * {@code TELENORID_E_EXPIRED}: the device code (RFC 8628 §3.5) or backchannel request (CIBA Core §11) expired
 * before the user approved: the provider said {@code expired_token}, or the deadline the client keeps from
 * {@code expires_in} passed. Start again.
 */
public class ExpiredException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public ExpiredException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.EXPIRED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
