package no.telenor.id;

/**
 * The library's log in {@code java.util.logging}, under the logger {@value #LOGGER_NAME}.
 *
 * <p>The library reports each HTTP exchange ({@code FINE}: method, URL without its query, the status or the
 * error, the time taken), discovery, the key set, code exchanges, refreshes, sign-outs, DPoP nonce retries and
 * the loopback redirect ({@code INFO}), and a failed refresh ({@code WARNING}). A record's message is
 * {@code "<event> <message>"}, such as {@code "http.request GET https://id.example/.well-known/openid-configuration
 * 200 12 ms"}; it never holds a token, code, verifier, secret, key, assertion or proof.
 *
 * <p>The logger's level is {@code WARNING} unless the host gives it one, as Python's {@code telenorid} logger
 * is: so by default the library's INFO and FINE records are not published, and nothing but a failed refresh
 * reaches the console handler of the JDK's default configuration. To see them, set the level in the logging
 * configuration ({@code telenorid.level = INFO}, or {@code FINE} for each HTTP exchange, in the file
 * {@code java.util.logging.config.file} names), or in code:
 * {@code Logger.getLogger("telenorid").setLevel(Level.FINE)} followed by {@link #syncLevel()} (a level set
 * before the native code loads is kept and needs no call).
 *
 * <p>So that events nobody listens to cost nothing, the library is told the logger's effective level when the
 * native code is loaded, and sends nothing below it. After changing that level later, call
 * {@link #syncLevel()}. ({@code java.util.logging} rather than {@code System.Logger}: the library targets
 * Java 8 and Android, which have only the former; {@code System.Logger}'s default backend is it too.)
 */
public final class TelenoridLog {
    /** The logger's name. */
    public static final String LOGGER_NAME = "telenorid";

    private TelenoridLog() {
    }

    /**
     * Tells the library the {@value #LOGGER_NAME} logger's effective level, loading the native code first if
     * need be. Thread-safe. Not from inside a log handler that the library's events reach: the library refuses
     * calls from inside its log callback, and this throws {@link InvalidArgumentException} there.
     */
    public static void syncLevel() {
        Native.ensureLoaded();
        LogSink.install();
    }
}
