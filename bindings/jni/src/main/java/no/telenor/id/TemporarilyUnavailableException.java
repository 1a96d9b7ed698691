package no.telenor.id;

/**
 * {@code TELENORID_E_TEMPORARILY_UNAVAILABLE}: HTTP 5xx or 429 (or a redirect where an OAuth answer was
 * expected), whatever OAuth {@code error} it carried: no verdict on the grant, the state is as it was; try
 * again later, after {@link #retryAfter()} seconds when the server said. Always {@link #isTransient()}. An
 * {@link HttpStatusException}, so handlers written before this status existed still catch it.
 */
public class TemporarilyUnavailableException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public TemporarilyUnavailableException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.TEMPORARILY_UNAVAILABLE.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri,
                httpStatus);
    }
}
