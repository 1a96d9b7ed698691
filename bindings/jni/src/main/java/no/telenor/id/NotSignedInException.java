package no.telenor.id;

/** {@code TELENORID_E_NOT_SIGNED_IN}: the auth state holds no usable authorization. */
public class NotSignedInException extends UsageException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public NotSignedInException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.NOT_SIGNED_IN.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
