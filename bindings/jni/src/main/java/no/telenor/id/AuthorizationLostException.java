package no.telenor.id;

/** {@code TELENORID_E_AUTHORIZATION_LOST}: the provider refused the refresh token; the user is signed out. */
public class AuthorizationLostException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public AuthorizationLostException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.AUTHORIZATION_LOST.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
