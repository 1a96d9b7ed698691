package no.telenor.id;

/** {@code TELENORID_E_TLS}: the TLS handshake or certificate verification failed. */
public class TlsException extends TransportException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public TlsException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.TLS.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
