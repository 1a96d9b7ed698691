package no.telenor.id;

/**
 * {@code TELENORID_E_AUTHORIZATION_LOST}: the provider refused the refresh token; the user is signed out.
 * {@link RotationPossiblyLostException} is one too (a sign-out of the rotation journal's), so one handler
 * of a lost sign-in catches both.
 */
public class AuthorizationLostException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public AuthorizationLostException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        this(Status.AUTHORIZATION_LOST.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }

    AuthorizationLostException(int statusCode, String statusName, String message, String oauthError,
            String oauthErrorDescription, String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
