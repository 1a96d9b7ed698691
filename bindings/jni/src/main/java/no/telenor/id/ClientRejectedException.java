package no.telenor.id;

/**
 * {@code TELENORID_E_CLIENT_REJECTED}: the provider refused the client itself ({@code invalid_client},
 * {@code unauthorized_client}, RFC 6749 §5.2): a mistyped or rotated secret, a revoked key. The user stays
 * signed in: fix the client's credentials and every user carries on. An {@link AuthorizationErrorException},
 * so handlers written before this status existed still catch it.
 */
public class ClientRejectedException extends AuthorizationErrorException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public ClientRejectedException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.CLIENT_REJECTED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
