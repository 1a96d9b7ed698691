package no.telenor.id;

/**
 * What an app's callback (a {@link HostKeySigner}, a {@link Store}) threw on this thread, kept so that the
 * library call it was part of can give it as its exception's cause: the library itself reports only that the
 * callback failed. A thread makes one library call at a time, so one slot per thread serves every callback.
 */
final class HostCallFailure {
    private static final ThreadLocal<Throwable> THROWN = new ThreadLocal<>();

    private HostCallFailure() {
    }

    /** Keeps what a callback threw, for the call under way on this thread. */
    static void record(Throwable thrown) {
        THROWN.set(thrown);
    }

    /** A native call that may run the app's callbacks. */
    interface Request<T> {
        T run();
    }

    /** Runs {@code request}; when it fails after a callback threw on this thread, that throwable becomes the cause. */
    static <T> T attach(Request<T> request) {
        THROWN.remove();
        try {
            return request.run();
        } catch (TelenoridException e) {
            Throwable thrown = THROWN.get();
            if (thrown != null && e.getCause() == null) {
                e.initCause(thrown);
            }
            throw e;
        } finally {
            THROWN.remove();
        }
    }
}
