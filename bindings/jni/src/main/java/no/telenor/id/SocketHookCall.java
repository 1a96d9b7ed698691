package no.telenor.id;

/**
 * What the bridge calls for each socket (telenorid_jni_line_auth.c looks up {@link #onSocket} by name):
 * runs the app's {@link SocketHook} and turns what it throws into a refusal, keeping the throwable for
 * the thread that runs the exchange so that {@link LineAuthenticator} can attach it to the exchange's
 * exception. Keep from renaming by R8/ProGuard (android/consumer-rules.pro).
 */
final class SocketHookCall {
    private final SocketHook hook;
    private final ThreadLocal<Throwable> failure = new ThreadLocal<>();

    SocketHookCall(SocketHook hook) {
        this.hook = hook;
    }

    int onSocket(int fd) {
        try {
            SocketHook.Verdict verdict = hook.onSocket(fd);
            return verdict == null ? SocketHook.Verdict.REFUSE.code() : verdict.code();
        } catch (Throwable thrown) {
            failure.set(thrown);
            return SocketHook.Verdict.REFUSE.code();
        }
    }

    /** What the hook threw on this thread since the last call, or null; clears it. */
    Throwable takeFailure() {
        Throwable thrown = failure.get();
        failure.remove();
        return thrown;
    }
}
