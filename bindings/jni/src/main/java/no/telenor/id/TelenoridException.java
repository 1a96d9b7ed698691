package no.telenor.id;

/**
 * A failed libtelenorid call: the status code and the detail the library recorded for it
 * ({@code telenorid_error_last()}).
 *
 * <p>Unchecked, like the exceptions of most JVM and Android libraries written after checked exceptions
 * fell out of favour: most of these are programming or configuration errors (an invalid argument, a
 * parameter conflict, a missing setting) that a caller can't handle locally anyway; Kotlin, the main
 * language on Android, has no checked exceptions; and lambdas and streams can't throw them. The
 * outcomes a caller is expected to handle are documented with {@code @throws} on each method and have
 * their own subclasses, one per status, grouped in four families where one handler usually fits them all:
 * {@link UsageException} (the program or its configuration is wrong: fix it, don't retry),
 * {@link TransportException} (the provider could not be reached; {@link #isTransient()} says whether
 * retrying may help), {@link ProviderException} (the provider refused or answered nonsense) and
 * {@link ValidationException} (a callback, token or text failed the library's checks, with
 * {@link CallbackMismatchException} for a callback that is not the answer to our request).
 * {@link RandomException} (the system's random source failed) belongs to none.
 *
 * <p>Every instance carries the numeric {@link #statusCode()} (and its {@link #status()} enum constant),
 * the library's {@link #statusName()} and {@link #message() message}, and for errors the provider
 * answered with, the OAuth {@link #oauthError()}, {@link #oauthErrorDescription()} and
 * {@link #oauthErrorUri()}; {@link #httpStatus()} is the HTTP status of the response an error came from,
 * 0 when there was none; {@link #retryAfter()} the wait the server asked for, -1 when it asked none.
 */
public class TelenoridException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@link #statusCode()}. */
    private final int statusCode;
    /** {@link #statusName()}. */
    private final String statusName;
    /** {@link #message()}. */
    private final String message;
    /** {@link #oauthError()}. */
    private final String oauthError;
    /** {@link #oauthErrorDescription()}. */
    private final String oauthErrorDescription;
    /** {@link #oauthErrorUri()}. */
    private final String oauthErrorUri;
    /** {@link #httpStatus()}. */
    private final int httpStatus;
    /**
     * Set once by {@link #fromNative} before the exception is thrown, as {@link Throwable#initCause} sets
     * the cause, so that the public constructors of every subclass keep their signatures.
     */
    private long retryAfter = -1;

    /**
     * @param statusCode the C status code
     * @param statusName the library's name of it (as {@link Telenorid#statusName}); null: taken from the enum
     * @param message the readable message
     * @param oauthError the OAuth {@code error}, or null
     * @param oauthErrorDescription the OAuth {@code error_description}, or null
     * @param oauthErrorUri the OAuth {@code error_uri}, or null
     * @param httpStatus the HTTP status of the response the error came from, or 0
     */
    public TelenoridException(int statusCode, @Nullable String statusName, @Nullable String message,
            @Nullable String oauthError,
            @Nullable String oauthErrorDescription, @Nullable String oauthErrorUri, int httpStatus) {
        super(describe(message, oauthError, oauthErrorDescription));
        this.statusCode = statusCode;
        this.statusName = statusName != null ? statusName : Status.of(statusCode).name().toLowerCase(java.util.Locale.ROOT);
        this.message = message;
        this.oauthError = oauthError;
        this.oauthErrorDescription = oauthErrorDescription;
        this.oauthErrorUri = oauthErrorUri;
        this.httpStatus = httpStatus;
    }

    /** The C status code, as in telenorid.h; stable across versions. */
    public final int statusCode() {
        return statusCode;
    }

    /** The status as an enum constant; {@link Status#UNKNOWN} for a code newer than this binding. */
    public final @NonNull Status status() {
        return Status.of(statusCode);
    }

    /** The library's readable name of the status, such as {@code "state mismatch"}. */
    public final @NonNull String statusName() {
        return statusName;
    }

    /**
     * The library's message alone. {@link #getMessage()} adds the OAuth error and its description when
     * the message does not already name them.
     */
    public final @Nullable String message() {
        return message;
    }

    /** The OAuth {@code error} code (such as {@code "access_denied"}), or null when the provider sent none. */
    public final @Nullable String oauthError() {
        return oauthError;
    }

    /** The OAuth {@code error_description}, or null. */
    public final @Nullable String oauthErrorDescription() {
        return oauthErrorDescription;
    }

    /** The OAuth {@code error_uri}, or null. */
    public final @Nullable String oauthErrorUri() {
        return oauthErrorUri;
    }

    /** The HTTP status of the response the error came from, or 0 when there was none. */
    public final int httpStatus() {
        return httpStatus;
    }

    /**
     * Seconds the server asked to wait before trying again ({@code Retry-After} of a 429 or 503 answer,
     * RFC 9110 §10.2.3), or -1 when it did not say, said more than a day, or the error came from no such
     * answer. A {@code long} with -1, like {@link #httpStatus()} with 0, rather than an
     * {@code OptionalLong}, which Android has only from API level 24.
     */
    public final long retryAfter() {
        return retryAfter;
    }

    /**
     * True when the same call may succeed later with nothing changed (a timeout, no connection, TLS, HTTP
     * 5xx or 429): {@link Telenorid#isTransient(int)} of {@link #statusCode()}, the library's rule, so a
     * status newer than this binding is judged right too.
     */
    public boolean isTransient() {
        return Telenorid.isTransient(statusCode);
    }

    private static String describe(String message, String oauthError, String description) {
        String text = message != null ? message : "";
        boolean withError = oauthError != null && !text.contains(oauthError);
        boolean withDescription = description != null && !text.contains(description);
        if (withError && withDescription) {
            text += " (" + oauthError + ": " + description + ")";
        } else if (withError) {
            text += " (" + oauthError + ")";
        } else if (withDescription) {
            text += " (" + description + ")";
        }
        return text;
    }

    /**
     * Called by the bridge (by name and signature, from JNI_OnLoad) to make the exception for a failed
     * call; strings arrive as UTF-8 bytes, {@code retryAfter} as {@code telenorid_error_retry_after} gives it.
     */
    static TelenoridException fromNative(int statusCode, byte[] statusName, byte[] message, byte[] oauthError,
            byte[] oauthErrorDescription, byte[] oauthErrorUri, int httpStatus, long retryAfter) {
        TelenoridException e = create(statusCode, Utf8.decode(statusName), Utf8.decode(message), Utf8.decode(oauthError),
                Utf8.decode(oauthErrorDescription), Utf8.decode(oauthErrorUri), httpStatus);
        e.retryAfter = retryAfter;
        return e;
    }

    /** The subclass for {@code statusCode}; the base class for a code this binding does not know. */
    static TelenoridException create(int statusCode, String name, String message, String oauthError,
            String description, String uri, int httpStatus) {
        switch (Status.of(statusCode)) {
            case INVALID_ARGUMENT: return new InvalidArgumentException(name, message, oauthError, description, uri, httpStatus);
            case MALFORMED: return new MalformedException(name, message, oauthError, description, uri, httpStatus);
            case CONFIGURATION: return new ConfigurationException(name, message, oauthError, description, uri, httpStatus);
            case INSECURE: return new InsecureException(name, message, oauthError, description, uri, httpStatus);
            case UNSUPPORTED: return new UnsupportedException(name, message, oauthError, description, uri, httpStatus);
            case PARAMETER_CONFLICT: return new ParameterConflictException(name, message, oauthError, description, uri, httpStatus);
            case RANDOM: return new RandomException(name, message, oauthError, description, uri, httpStatus);
            case STATE_MISMATCH: return new StateMismatchException(name, message, oauthError, description, uri, httpStatus);
            case REDIRECT_MISMATCH: return new RedirectMismatchException(name, message, oauthError, description, uri, httpStatus);
            case ISSUER_MISMATCH: return new IssuerMismatchException(name, message, oauthError, description, uri, httpStatus);
            case AUTHORIZATION_ERROR: return new AuthorizationErrorException(name, message, oauthError, description, uri, httpStatus);
            case CONSUMED: return new ConsumedException(name, message, oauthError, description, uri, httpStatus);
            case VERSION: return new VersionException(name, message, oauthError, description, uri, httpStatus);
            case TIMEOUT: return new NetworkTimeoutException(name, message, oauthError, description, uri, httpStatus);
            case NETWORK: return new NetworkException(name, message, oauthError, description, uri, httpStatus);
            case TLS: return new TlsException(name, message, oauthError, description, uri, httpStatus);
            case HTTP_STATUS: return new HttpStatusException(name, message, oauthError, description, uri, httpStatus);
            case RESPONSE_TOO_LARGE: return new ResponseTooLargeException(name, message, oauthError, description, uri, httpStatus);
            case INVALID_RESPONSE: return new InvalidResponseException(name, message, oauthError, description, uri, httpStatus);
            case TOKEN_INVALID: return new TokenInvalidException(name, message, oauthError, description, uri, httpStatus);
            case AUTHORIZATION_LOST: return new AuthorizationLostException(name, message, oauthError, description, uri, httpStatus);
            case NOT_SIGNED_IN: return new NotSignedInException(name, message, oauthError, description, uri, httpStatus);
            case LINE_AUTH_UNAVAILABLE: return new LineAuthUnavailableException(name, message, oauthError, description, uri, httpStatus);
            case CLIENT_REJECTED: return new ClientRejectedException(name, message, oauthError, description, uri, httpStatus);
            case TEMPORARILY_UNAVAILABLE: return new TemporarilyUnavailableException(name, message, oauthError, description, uri, httpStatus);
            case PUSH_REFUSED: return new PushRefusedException(name, message, oauthError, description, uri, httpStatus);
            case PROVIDER_UNSUPPORTED: return new ProviderUnsupportedException(name, message, oauthError, description, uri, httpStatus);
            case CANCELLED: return new CancelledException(name, message, oauthError, description, uri, httpStatus);
            case EXPIRED: return new ExpiredException(name, message, oauthError, description, uri, httpStatus);
            case STORE_FAILED: return new StoreFailedException(name, message, oauthError, description, uri, httpStatus);
            case ROTATION_POSSIBLY_LOST:
                return new RotationPossiblyLostException(name, message, oauthError, description, uri, httpStatus);
            default: return new TelenoridException(statusCode, name, message, oauthError, description, uri, httpStatus);
        }
    }
}
