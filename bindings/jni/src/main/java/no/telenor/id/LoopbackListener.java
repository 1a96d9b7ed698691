package no.telenor.id;

/**
 * A loopback redirect listener (RFC 8252 §7.3, {@code telenorid_loopback}) for desktop JVM hosts: a socket
 * on 127.0.0.1 that the system browser is redirected to at the end of sign-in. Configure
 * {@link #redirectUri()} as the redirect URI, open the authorization URL, then
 * {@link #awaitRedirect(long)}, and give what it returns to {@link PendingAuthorization#handleCallback}.
 * {@link #close()} closes the socket. Android apps receive redirects as intents instead.
 */
public final class LoopbackListener extends NativeObject {
    /**
     * Listens on 127.0.0.1:{@code port} (0: a free port the system picks) for {@code path} (null:
     * {@code "/callback"}).
     *
     * @throws IllegalArgumentException when the port is not 0..65535
     * @throws InvalidArgumentException when the path does not start with "/" or has "?", "#" or
     *         non-printable characters
     * @throws NetworkException when the port is in use
     */
    public LoopbackListener(int port, @Nullable String path) {
        super(Native.loopbackNew(port, Utf8.encode(path)), Native::loopbackFree);
    }

    /** The redirect URI to configure, e.g. {@code "http://127.0.0.1:53682/callback"}. */
    public @NonNull String redirectUri() {
        return call(h -> Utf8.decode(Native.loopbackRedirectUri(h)));
    }

    /**
     * Blocks until the browser's redirect arrives and returns its full URL; other requests are answered
     * and the wait goes on. A listener waits once. {@link #close()} waits for this to return;
     * {@link #cancel()} from another thread ends it.
     *
     * @throws IllegalArgumentException when {@code timeoutMillis} is not 1..{@link Integer#MAX_VALUE}
     * @throws NetworkTimeoutException when nothing came in time
     * @throws CancelledException when another thread called {@link #cancel()} (the listener can wait again)
     * @throws ConsumedException when the listener already received its redirect, or another thread is waiting
     */
    public @NonNull String awaitRedirect(long timeoutMillis) {
        if (timeoutMillis <= 0 || timeoutMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeoutMillis must be 1.." + Integer.MAX_VALUE);
        }
        return call(h -> Utf8.decode(Native.loopbackWait(h, (int) timeoutMillis)));
    }

    /**
     * Ends an {@link #awaitRedirect(long)} under way on another thread within 100 ms: it throws
     * {@link CancelledException}, and the listener can wait again. A later wait runs normally. Any thread;
     * never blocks.
     */
    public void cancel() {
        call(h -> {
            Native.loopbackCancel(h);
            return null;
        });
    }

    /**
     * Only a callback whose query carries exactly {@code state} (the pending request's,
     * {@link PendingAuthorization#state()}) ends the wait; one with no, another or a repeated state is
     * answered 400 and the wait goes on, so another local process cannot end the sign-in. Null accepts any.
     * Also during another thread's wait: requests that arrive after it returns are checked against it.
     * Query responses only: with {@code response_mode=fragment} the state never reaches the listener.
     *
     * @throws InvalidArgumentException when {@code state} is empty
     */
    public void expectState(@Nullable String state) {
        byte[] bytes = Utf8.encode(state);
        call(h -> {
            Native.loopbackExpectState(h, bytes);
            return null;
        });
    }
}
