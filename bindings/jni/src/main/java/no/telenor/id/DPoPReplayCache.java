package no.telenor.id;

/**
 * What resource servers checking DPoP proofs of one server remember ({@code telenorid_dpop_replay_cache}):
 * the {@code jti} of each proof accepted within the window (RFC 9449 §11.1) and the key the server's nonces
 * are made with (§9). Each {@link ResourceServer} has one of its own; resource servers that are one server
 * to their clients share one with {@link ResourceServer#setDPoPReplayCache}, so that a proof one accepted is
 * a replay to all and a nonce one handed out is taken by all. Keeps SHA-256 digests, never proofs or
 * tokens. Safe to share between threads; resource servers using it keep it alive after {@link #close()}.
 */
public final class DPoPReplayCache extends NativeObject {
    /**
     * Creates a cache whose proofs are accepted for {@code windowSeconds} after their {@code iat} (1 to 3600)
     * and which holds at most {@code capacity} of them at once (1 to 4194304). Its nonces change every
     * window; the current one and the one before are accepted.
     *
     * @throws InvalidArgumentException when a value is out of range
     */
    public DPoPReplayCache(long windowSeconds, int capacity) {
        super(Native.dpopReplayCacheNew(windowSeconds, capacity), Native::dpopReplayCacheFree);
    }

    /** Runs {@code body} with the native handle, open for its duration. */
    <T> T withHandle(Call<T> body) {
        return call(body);
    }
}
