package no.telenor.id;

/** {@code TELENORID_E_UNSUPPORTED}: refused by policy or not implemented, such as plain PKCE the configuration does not allow. */
public class UnsupportedException extends UsageException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public UnsupportedException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.UNSUPPORTED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
