package no.telenor.id;

/** {@code TELENORID_E_UNSUPPORTED}: refused by policy or not implemented, such as plain PKCE the configuration does not allow. */
public class UnsupportedException extends UsageException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public UnsupportedException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.UNSUPPORTED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
