package no.telenor.id;

/** The network failed (timeout, connection, TLS, HTTP status, size cap); the state is as it was, so retrying later may succeed. */
public abstract class TransportException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    TransportException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }

    /**
     * True when trying again later may well succeed: a timeout, no connection, a TLS failure (a captive
     * portal, a clock that is off), or an HTTP 5xx or 429 answer. False for a 4xx other than 429 and for
     * a response over the size cap, which the same request will meet again.
     */
    public boolean isTransient() {
        switch (status()) {
            case TIMEOUT:
            case NETWORK:
            case TLS:
                return true;
            case HTTP_STATUS:
                return httpStatus() >= 500 || httpStatus() == 429;
            default:
                return false;
        }
    }
}
