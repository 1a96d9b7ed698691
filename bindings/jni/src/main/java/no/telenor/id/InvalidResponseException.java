package no.telenor.id;

/** {@code TELENORID_E_INVALID_RESPONSE}: a response that is not what the protocol says. */
public class InvalidResponseException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public InvalidResponseException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.INVALID_RESPONSE.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
