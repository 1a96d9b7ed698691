package no.telenor.id;

/**
 * {@code TELENORID_E_CANCELLED}: another thread cancelled the call ({@link Client#cancel()},
 * {@link LoopbackListener#cancel()}); nothing changed. In no family: nothing went wrong that a handler of
 * usage, transport, provider or validation errors should act on.
 */
public class CancelledException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public CancelledException(@Nullable String statusName, @Nullable String message, @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.CANCELLED.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
