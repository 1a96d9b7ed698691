package no.telenor.id;

/** {@code TELENORID_E_RESPONSE_TOO_LARGE}: a response body or its headers over the configured cap. */
public class ResponseTooLargeException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public ResponseTooLargeException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.RESPONSE_TOO_LARGE.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
