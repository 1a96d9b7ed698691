package no.telenor.id;

/**
 * The family of a call the program got wrong, or a setup that can't work: an invalid argument, a
 * parameter conflict, an object already consumed, a library version too old, a call that needs a signed-in
 * state without one, a missing or inconsistent configuration, an insecure setting (such as a plain
 * {@code http} URL) and a feature this build or provider does not support. Retrying the same call will
 * fail the same way: fix the code or the configuration. Its subclasses are
 * {@link InvalidArgumentException}, {@link ParameterConflictException}, {@link ConsumedException},
 * {@link VersionException}, {@link NotSignedInException}, {@link ConfigurationException},
 * {@link InsecureException} and {@link UnsupportedException}.
 */
public abstract class UsageException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    UsageException(int statusCode, String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(statusCode, statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
