package no.telenor.id;

/** A callback that is not the answer to this request (state, redirect URI or issuer differ): ignore it, it may be forged; the pending authorization is not consumed. */
public abstract class CallbackMismatchException extends ValidationException {
    private static final long serialVersionUID = 1L;

    CallbackMismatchException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
