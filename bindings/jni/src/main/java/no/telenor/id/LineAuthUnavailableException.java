package no.telenor.id;

/**
 * {@code TELENORID_E_LINE_AUTH_UNAVAILABLE}: TelenorID+ line authentication can't run here: the device is
 * not on a cellular network (the app may ask the user to turn Wi-Fi off) or no Aloha URL is configured.
 */
public class LineAuthUnavailableException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public LineAuthUnavailableException(@Nullable String statusName, @Nullable String message,
            @Nullable String oauthError, @Nullable String oauthErrorDescription,
            @Nullable String oauthErrorUri, int httpStatus) {
        super(Status.LINE_AUTH_UNAVAILABLE.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
