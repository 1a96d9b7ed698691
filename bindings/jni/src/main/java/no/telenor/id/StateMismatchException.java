package no.telenor.id;

/** {@code TELENORID_E_STATE_MISMATCH}: a callback's {@code state} is not the pending request's. */
public class StateMismatchException extends CallbackMismatchException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public StateMismatchException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.STATE_MISMATCH.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
