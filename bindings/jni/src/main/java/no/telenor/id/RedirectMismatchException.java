package no.telenor.id;

/** {@code TELENORID_E_REDIRECT_MISMATCH}: a callback did not arrive at the configured redirect URI. */
public class RedirectMismatchException extends CallbackMismatchException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public RedirectMismatchException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.REDIRECT_MISMATCH.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
