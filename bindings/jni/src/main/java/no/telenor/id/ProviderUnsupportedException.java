package no.telenor.id;

/**
 * {@code TELENORID_E_PROVIDER_UNSUPPORTED}: the provider's metadata lacks what the configuration needs, such
 * as a pushed authorization request endpoint where requests must be pushed.
 */
public class ProviderUnsupportedException extends ProviderException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public ProviderUnsupportedException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.PROVIDER_UNSUPPORTED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
