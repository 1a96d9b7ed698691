package no.telenor.id;

/** {@code TELENORID_E_NETWORK}: no connection: refused, reset, unreachable, unresolved. */
public class NetworkException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public NetworkException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.NETWORK.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
