package no.telenor.id;

/** The network failed (timeout, connection, TLS, HTTP status, size cap); the state is as it was, so retrying later may succeed. */
public abstract class TransportException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    TransportException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
