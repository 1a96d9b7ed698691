package no.telenor.id;

/**
 * The family of failures to reach the provider: the network failed (timeout, connection, TLS, HTTP status,
 * size cap) or, for line authentication, there is no cellular network to run on
 * ({@link LineAuthUnavailableException}); the state is as it was. Whether
 * retrying later may succeed is {@link #isTransient()}, the library's rule: true for a timeout, no
 * connection, TLS and {@link TemporarilyUnavailableException} (HTTP 5xx, 429), false for another HTTP
 * status and a response over the size cap, which the same request will meet again.
 */
public abstract class TransportException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    TransportException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
