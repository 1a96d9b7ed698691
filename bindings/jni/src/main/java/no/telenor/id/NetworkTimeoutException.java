package no.telenor.id;

/** {@code TELENORID_E_TIMEOUT}: the server did not answer in time. */
public class NetworkTimeoutException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public NetworkTimeoutException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.TIMEOUT.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
