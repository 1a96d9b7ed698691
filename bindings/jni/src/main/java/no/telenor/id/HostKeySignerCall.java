package no.telenor.id;

/**
 * What the bridge calls for each signature by a host-held key (telenorid_jni_dpop.c looks up {@link #sign} by name): runs
 * the app's {@link HostKeySigner} and turns what it throws into a failure, keeping the throwable for the
 * thread that made the request so that {@link #attachFailure} can make it the cause of the request's
 * exception. Keep from renaming by R8/ProGuard (android/consumer-rules.pro).
 */
final class HostKeySignerCall {
    /** What a signer threw on this thread, whichever client's signer it was: one request per thread. */
    private static final ThreadLocal<Throwable> FAILURE = new ThreadLocal<>();

    private final HostKeySigner signer;

    HostKeySignerCall(HostKeySigner signer) {
        this.signer = signer;
    }

    byte[] sign(byte[] signingInput) {
        try {
            return signer.sign(signingInput);
        } catch (Throwable thrown) {
            FAILURE.set(thrown);
            return null;
        }
    }

    /** A native call that may sign proofs. */
    interface Request<T> {
        T run();
    }

    /**
     * Runs {@code request}; when it fails after a signer threw on this thread, that throwable becomes the
     * exception's cause (the library reports only that the signer failed).
     */
    static <T> T attachFailure(Request<T> request) {
        FAILURE.remove();
        try {
            return request.run();
        } catch (TelenoridException e) {
            Throwable thrown = FAILURE.get();
            if (thrown != null && e.getCause() == null) {
                e.initCause(thrown);
            }
            throw e;
        } finally {
            FAILURE.remove();
        }
    }
}
