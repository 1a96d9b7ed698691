package no.telenor.id;

/** {@code TELENORID_E_MALFORMED}: input that does not parse: a URL, JSON, a parameter. */
public class MalformedException extends ValidationException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public MalformedException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.MALFORMED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
