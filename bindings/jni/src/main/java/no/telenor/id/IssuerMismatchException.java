package no.telenor.id;

/** {@code TELENORID_E_ISSUER_MISMATCH}: a callback's {@code iss} (RFC 9207) is not the configured issuer. */
public class IssuerMismatchException extends CallbackMismatchException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public IssuerMismatchException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.ISSUER_MISMATCH.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
