package no.telenor.id;

/**
 * {@code TELENORID_E_PUSH_REFUSED}: the pushed authorization request endpoint refused the request with an
 * OAuth {@code error} (RFC 9126 §2.3); the user's browser was never sent anywhere. An
 * {@link AuthorizationErrorException}, so handlers written before this status existed still catch it.
 */
public class PushRefusedException extends AuthorizationErrorException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public PushRefusedException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.PUSH_REFUSED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
