package no.telenor.id;

/**
 * Where bound auth states live, implemented by the app (a keychain, an encrypted database, a server): records
 * under keys ({@code A-Z a-z 0-9 . _ -}, 1 to 128 characters, not ending in {@code .update}) and named locks.
 * The library calls it on the thread of the call that needs it, possibly on several threads at once; what it
 * throws fails that call with {@link StoreFailedException} (the throwable as its cause where the call was
 * {@link AuthState#bindStore} or {@link Client#openStore}). From inside these methods the library's other
 * calls fail with {@link InvalidArgumentException}: the call they serve may hold the state's locks.
 *
 * <p>A refresh holds the lock {@code key} for its round trip and takes {@code key + ".update"} inside it; a
 * sign-out takes {@code key + ".update"} alone: a lock must exclude every holder of its name across the
 * threads and processes sharing the store. See {@link DirectoryStore} for the library's own file store.
 */
public interface Store {
    /** Record {@code key}, or null when there is none. It holds the refresh token. */
    @Nullable byte[] load(@NonNull String key) throws Exception;

    /** Replaces record {@code key} atomically: a load sees the old record or the new one, never a mix. */
    void store(@NonNull String key, @NonNull byte[] data) throws Exception;

    /**
     * Takes the lock {@code name}, waiting at most {@code timeoutMillis} (the configured total HTTP timeout);
     * false when it could not. Never asked for a lock the calling thread holds.
     */
    boolean lock(@NonNull String name, long timeoutMillis) throws Exception;

    /** Releases the lock {@code name}, taken by {@link #lock} on this thread. */
    void unlock(@NonNull String name) throws Exception;
}
