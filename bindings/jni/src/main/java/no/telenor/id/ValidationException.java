package no.telenor.id;

/**
 * The family of input that failed a check the library makes on the caller's behalf: a callback that is
 * not the answer to our request ({@link CallbackMismatchException}: state, redirect URI or issuer), a token
 * whose signature, issuer, audience, nonce or times do not hold ({@link TokenInvalidException}), and text
 * that does not parse (a URL, JSON, a serialized state: {@link MalformedException}). Never retry with the
 * same input: treat it as a possible attack or a corrupted store and start the flow again.
 */
public abstract class ValidationException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    ValidationException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
