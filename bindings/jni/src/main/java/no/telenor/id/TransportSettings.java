package no.telenor.id;

/**
 * The typed setters of {@link Config.Builder} for the transport and the checks: TLS trust, proxy, timeouts,
 * response cap, clock tolerance and offset, ID token audiences and algorithms, refresh margin, key set age.
 * A class of their own so that neither file grows past one reading; every setter returns the builder.
 *
 * @param <B> the builder
 */
abstract class TransportSettings<B extends TransportSettings<B>> {
    /** Sets one setting; null clears it. */
    public abstract @NonNull B set(@NonNull Config.Key key, @Nullable String value);

    /** A PEM bundle of CA certificates to verify TLS with, instead of the system's ({@link Config.Key#CA_FILE}). */
    public @NonNull B caFile(@Nullable String path) {
        return set(Config.Key.CA_FILE, path);
    }

    /** A directory of hashed CA certificates to verify TLS with, instead of the system's ({@link Config.Key#CA_PATH}). */
    public @NonNull B caPath(@Nullable String path) {
        return set(Config.Key.CA_PATH, path);
    }

    /** The proxy, e.g. {@code "http://proxy:3128"}; the environment's proxies are ignored ({@link Config.Key#PROXY}). */
    public @NonNull B proxy(@Nullable String proxy) {
        return set(Config.Key.PROXY, proxy);
    }

    /** The connect timeout in milliseconds; default 10000 ({@link Config.Key#CONNECT_TIMEOUT_MS}). */
    public @NonNull B connectTimeoutMillis(long millis) {
        return set(Config.Key.CONNECT_TIMEOUT_MS, Long.toString(millis));
    }

    /** The timeout of a whole request in milliseconds; default 30000 ({@link Config.Key#TIMEOUT_MS}). */
    public @NonNull B timeoutMillis(long millis) {
        return set(Config.Key.TIMEOUT_MS, Long.toString(millis));
    }

    /** The largest response body taken, in bytes; default 1048576 ({@link Config.Key#MAX_RESPONSE_BYTES}). */
    public @NonNull B maxResponseBytes(long bytes) {
        return set(Config.Key.MAX_RESPONSE_BYTES, Long.toString(bytes));
    }

    /** The leeway in seconds for a token's {@code exp}, {@code iat} and {@code nbf}; default 120 ({@link Config.Key#CLOCK_TOLERANCE_S}). */
    public @NonNull B clockToleranceSeconds(long seconds) {
        return set(Config.Key.CLOCK_TOLERANCE_S, Long.toString(seconds));
    }

    /** Seconds added to the local clock; default 0 ({@link Config.Key#CLOCK_OFFSET_S}). */
    public @NonNull B clockOffsetSeconds(long seconds) {
        return set(Config.Key.CLOCK_OFFSET_S, Long.toString(seconds));
    }

    /** Space-separated other audiences an ID token may name. */
    public @NonNull B trustedAudiences(@Nullable String audiences) {
        return set(Config.Key.TRUSTED_AUDIENCES, audiences);
    }

    /** Space-separated allow-list of ID token signing algorithms. */
    public @NonNull B idTokenSigningAlgs(@Nullable String algorithms) {
        return set(Config.Key.ID_TOKEN_SIGNING_ALGS, algorithms);
    }

    /** Tokens expiring within this many seconds are refreshed first; default 60 ({@link Config.Key#REFRESH_MARGIN_S}). */
    public @NonNull B refreshMarginSeconds(long seconds) {
        return set(Config.Key.REFRESH_MARGIN_S, Long.toString(seconds));
    }

    /** Seconds a fetched key set is used before it is fetched again; default 300. */
    public @NonNull B jwksMaxAgeSeconds(long seconds) {
        return set(Config.Key.JWKS_MAX_AGE_S, Long.toString(seconds));
    }
}
