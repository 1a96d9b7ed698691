package no.telenor.id;

/** {@code TELENORID_E_PARAMETER_CONFLICT}: an extra parameter would override one the library owns, or was added twice. */
public class ParameterConflictException extends UsageException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public ParameterConflictException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.PARAMETER_CONFLICT.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
