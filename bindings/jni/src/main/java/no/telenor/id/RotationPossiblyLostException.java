package no.telenor.id;

/**
 * {@code TELENORID_E_ROTATION_POSSIBLY_LOST}: a refresh was in flight when the process making it
 * stopped, and the provider now refuses the stored refresh token: it probably rotated it for that refresh,
 * whose answer was never stored. Signed out, as with {@link AuthorizationLostException}: sign in again. An
 * {@link AuthorizationLostException}, so every handler of a lost sign-in catches it too.
 */
public class RotationPossiblyLostException extends AuthorizationLostException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public RotationPossiblyLostException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.ROTATION_POSSIBLY_LOST.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
