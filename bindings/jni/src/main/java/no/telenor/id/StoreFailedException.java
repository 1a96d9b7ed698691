package no.telenor.id;

/**
 * {@code TELENORID_E_STORE_FAILED}: the host's store failed (an operation failed, its lock was not
 * had in time) or loaded what is not an auth state; the message names the operation and the record key.
 * Nothing changed. In no family: the failure is the host's own storage.
 */
public class StoreFailedException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public StoreFailedException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.STORE_FAILED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
