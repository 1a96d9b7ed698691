package no.telenor.id;

/** {@code TELENORID_E_INVALID_ARGUMENT}: an argument is out of range, invalid UTF-8 or too long (over 1 MiB). */
public class InvalidArgumentException extends UsageException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public InvalidArgumentException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.INVALID_ARGUMENT.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
