package no.telenor.id;

/**
 * Told after every change of an {@link AuthState} the app must persist: a refresh, a refresh token
 * rotation, a sign-out (a revoke, or the provider refusing the refresh token).
 *
 * <p>Runs on the thread that made the change (any thread that called a method of the state), after the
 * state's own locks are released, so it may call the state's reading methods ({@link AuthState#serialize()},
 * say) — but not {@link AuthState#setChangeListener} or {@link AuthState#close()}, which throw
 * {@link IllegalStateException} there. Keep it short: the call that made the change waits for it. What it
 * throws goes to the thread's uncaught exception handler; the change itself stands.
 */
public interface ChangeListener {
    /** The state changed. */
    void onChange();
}
