package no.telenor.id;

/** {@code TELENORID_E_MALFORMED}: input that does not parse: a URL, JSON, a parameter. */
public class MalformedException extends ValidationException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public MalformedException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.MALFORMED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
