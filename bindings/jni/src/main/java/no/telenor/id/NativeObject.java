package no.telenor.id;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The base of every class that owns a native handle.
 *
 * <p>Every native call runs under the handle's lock, so that a handle is never freed while a call is using
 * it:
 * <ul>
 *   <li>{@link #call} takes the read lock: calls on types the header says are safe to share (an immutable
 *       configuration, a pending authorization, ...) run concurrently;
 *   <li>{@link #callExclusive} takes the write lock: calls on mutable types (the authorization request,
 *       which the library serialises as well) and calls the header allows one at a time (a loopback
 *       listener's wait) are serialised;
 *   <li>{@link #close} takes the write lock: it waits for calls in flight, frees the handle once, and later
 *       calls throw {@link IllegalStateException}. A second close is a no-op.
 * </ul>
 *
 * <p>Reachability: the handle value lives in a separate {@link Handle} object that every call holds (a
 * local variable) for its whole duration and that the GC safety net ({@link NativeCleaner}) frees through
 * the same write lock. So even if the JIT decides the wrapper object is unreachable in the middle of a
 * native call, the cleaner blocks on the lock until the call returns; no
 * {@code Reference.reachabilityFence} (Java 9, Android API 28) is needed.
 *
 * <p>Adding a handle class: extend this, pass the handle and the {@code Native::xxxFree} method to the
 * constructor, keep a reference to the parent object the handle was made from, and write each method as
 * {@code call(h -> Utf8.decode(Native.xxx(h, ...)))}.
 */
abstract class NativeObject implements AutoCloseable {
    /** A native free function, {@code Native::xxxFree}. */
    interface Free {
        void free(long handle);
    }

    /** A native call on the open handle. */
    interface Call<T> {
        T call(long handle);
    }

    /** A native call on the open handle with no result. */
    interface VoidCall {
        void call(long handle);
    }

    private final Handle handle;
    private final NativeCleaner.Registration registration;

    NativeObject(long handle, Free free) {
        if (handle == 0) {
            throw new IllegalStateException("the native call returned no handle");
        }
        this.handle = new Handle(handle, free, getClass().getSimpleName());
        this.registration = NativeCleaner.register(this, this.handle);
    }

    /** Runs {@code call} under the read lock (shared with other calls, excluding close). */
    final <T> T call(Call<T> call) {
        Handle handle = this.handle;
        Lock lock = handle.lock.readLock();
        lock.lock();
        try {
            return call.call(handle.value());
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code call} under the write lock (excluding every other call and close). */
    final <T> T callExclusive(Call<T> call) {
        Handle handle = this.handle;
        if (handle.lock.getReadHoldCount() > 0) {
            // A read lock can't be upgraded: waiting for the write lock here would wait for ourselves.
            throw new IllegalStateException("called from inside a call on the same " + handle.type);
        }
        Lock lock = handle.lock.writeLock();
        lock.lock();
        try {
            return call.call(handle.value());
        } finally {
            lock.unlock();
        }
    }

    /** {@link #callExclusive} for a call without a result. */
    final void runExclusive(VoidCall call) {
        callExclusive(h -> {
            call.call(h);
            return null;
        });
    }

    /**
     * Frees the native handle. Waits for calls on this object that other threads have in flight; after it,
     * every method but {@code close} and {@link #isClosed} throws {@link IllegalStateException}. Idempotent
     * and thread-safe. Objects created from this one stay usable (the library keeps what they need alive).
     *
     * @throws IllegalStateException when called from inside a call on this same object on the same thread
     *         (which could only happen from a callback; waiting would deadlock)
     */
    @Override
    public final void close() {
        handle.close();
        registration.unregister();
    }

    /** True after {@link #close()}. */
    public final boolean isClosed() {
        Lock lock = handle.lock.readLock();
        lock.lock();
        try {
            return handle.value == 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public @NonNull String toString() {
        return handle.type + (isClosed() ? "[closed]" : "[open]");
    }

    /** The handle value and its lock; referenced by the cleaner, so it must not reference its owner. */
    static final class Handle implements Runnable {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        private final Free free;
        private final String type;
        private long value; // guarded by lock; 0 once freed

        Handle(long value, Free free, String type) {
            this.value = value;
            this.free = free;
            this.type = type;
        }

        /** The open handle; the caller holds the lock. */
        long value() {
            long value = this.value;
            if (value == 0) {
                throw new IllegalStateException(type + " is closed");
            }
            return value;
        }

        void close() {
            if (lock.getReadHoldCount() > 0 || lock.isWriteLockedByCurrentThread()) {
                throw new IllegalStateException("close() called from inside a call on the same " + type);
            }
            Lock write = lock.writeLock();
            write.lock();
            try {
                long value = this.value;
                this.value = 0;
                if (value != 0) {
                    free.free(value);
                }
            } finally {
                write.unlock();
            }
        }

        /** The cleaner's action. */
        @Override
        public void run() {
            close();
        }
    }
}
