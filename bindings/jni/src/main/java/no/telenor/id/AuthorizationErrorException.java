package no.telenor.id;

/** {@code TELENORID_E_AUTHORIZATION_ERROR}: the provider answered with an OAuth {@code error}; see {@link #oauthError()}, {@link #oauthErrorDescription()}, {@link #oauthErrorUri()}. */
public class AuthorizationErrorException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public AuthorizationErrorException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        this(Status.AUTHORIZATION_ERROR.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }

    AuthorizationErrorException(int statusCode, String statusName, String message, String oauthError,
            String oauthErrorDescription, String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
