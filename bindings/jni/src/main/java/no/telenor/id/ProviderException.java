package no.telenor.id;

/**
 * The family of answers from the identity provider that end the flow: the provider refused the
 * authorization or the client ({@link AuthorizationErrorException}, with {@link ClientRejectedException}),
 * it no longer honours the grant the auth state held ({@link AuthorizationLostException}: sign the user in
 * again), or it answered with something that is not a valid protocol response
 * ({@link InvalidResponseException}). The OAuth {@link #oauthError()}, {@link #oauthErrorDescription()} and
 * {@link #oauthErrorUri()} carry what the provider said, when it said it.
 */
public abstract class ProviderException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    ProviderException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
