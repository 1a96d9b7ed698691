package no.telenor.id;

/** {@code TELENORID_E_HTTP_STATUS}: an HTTP status the call does not accept; see {@link #httpStatus()}. */
public class HttpStatusException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public HttpStatusException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        this(Status.HTTP_STATUS.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }

    HttpStatusException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
