package no.telenor.id;

/** {@code TELENORID_E_TOKEN_INVALID}: an ID token or signed response failed validation. */
public class TokenInvalidException extends ValidationException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public TokenInvalidException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.TOKEN_INVALID.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
