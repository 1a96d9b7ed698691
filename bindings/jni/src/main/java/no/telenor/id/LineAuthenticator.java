package no.telenor.id;

import java.util.Objects;

/**
 * TelenorID+ line authentication through Aloha ({@code telenorid_line_auth}): on a cellular network the
 * operator vouches for the subscriber's line, and the authorization request carries the session as
 * {@code aloha_token}, so the user signs in without typing anything.
 *
 * <p>Typical use: create one when the login screen appears and call {@link #run()} on a background
 * thread; when the user signs in, call {@link #apply} on the request (it reuses a session that is still
 * valid, else runs the exchange again on the calling thread). If line authentication fails, sign in
 * without it: the exception says why. Both block for the whole exchange: never call them on the UI
 * thread. Give it a {@link SocketHook} to put the exchange on the cellular network, and a
 * {@link HostResolver} to look its host names up there. The exchange never uses a proxy.
 *
 * <p>Safe to share between threads. {@link #setSocketHook}, {@link #setResolver} and {@link #close()} wait
 * for exchanges in flight. Keeps what it needs of its {@link Config}.
 */
public final class LineAuthenticator extends NativeObject {
    /** The native socket hook handle (0: none) and its Java side; guarded by the handle's write lock. */
    private static final class HookSlot {
        long value;
        SocketHookCall call;
    }

    /** The native resolver handle (0: none); guarded by the handle's write lock. */
    private static final class ResolverSlot {
        long value;
    }

    private final HookSlot hook;
    private final ResolverSlot resolver;

    /**
     * Creates a line authenticator for {@code config}, which must have {@link Config.Key#ALOHA_URL}.
     *
     * @throws LineAuthUnavailableException when no Aloha URL is configured
     * @throws InsecureException when the Aloha URL is not https
     */
    public LineAuthenticator(@NonNull Config config) {
        this(Objects.requireNonNull(config, "config").call(Native::lineAuthNew), new HookSlot(), new ResolverSlot());
    }

    private LineAuthenticator(long handle, HookSlot hook, ResolverSlot resolver) {
        // The free function frees the hook and the resolver with the handle (the cleaner must not reach `this`).
        super(handle, h -> Native.lineAuthFree(h, hook.value, resolver.value));
        this.hook = hook;
        this.resolver = resolver;
    }

    /**
     * Sets the hook called with each socket of later exchanges; null removes it. Waits for exchanges in
     * flight, which keep the hook they started with.
     */
    public void setSocketHook(@Nullable SocketHook socketHook) {
        SocketHookCall call = socketHook == null ? null : new SocketHookCall(socketHook);
        HookSlot slot = this.hook;
        runExclusive(h -> {
            slot.value = Native.lineAuthSetSocketHook(h, call, slot.value);
            slot.call = call;
        });
    }

    /**
     * Sets the resolver called with each host name of later exchanges, so that they are looked up on the
     * network the {@link SocketHook} binds the sockets to; null removes it (the system resolver answers
     * again). Waits for exchanges in flight, which keep the resolver they started with.
     *
     * @throws IllegalStateException when called from inside the resolver or the socket hook of this line
     *         authenticator
     */
    public void setResolver(@Nullable HostResolver hostResolver) {
        HostResolverCall call = hostResolver == null ? null : new HostResolverCall(hostResolver);
        ResolverSlot slot = this.resolver;
        runExclusive(h -> slot.value = Native.lineAuthSetResolver(h, call, slot.value));
    }

    /**
     * Runs one whole exchange now, blocking, and keeps the new session (replacing an older one). On
     * failure the kept session is unchanged.
     *
     * @throws LineAuthUnavailableException when the socket hook or the resolver said the device is not on
     *         cellular
     * @throws InsecureException when Aloha sends the exchange to a URL outside the policy (https on the
     *         Aloha host, plain http only for the inject request)
     * @throws InvalidResponseException when Aloha's answers are malformed or incomplete
     * @throws TransportException when Aloha can't be reached, or the socket hook or the resolver refused (what
     *         the resolver threw is its cause)
     * @throws InvalidArgumentException when the resolver answered addresses that are not IP addresses
     * @throws HttpStatusException when Aloha answers with an HTTP error
     */
    public void run() {
        call(h -> {
            exchange(() -> Native.lineAuthRun(h));
            return null;
        });
    }

    /**
     * Seconds the kept session is still valid for, less the margin ({@link #setMarginSeconds}); 0 when there
     * is none or it counts as expired.
     */
    public long validForSeconds() {
        return call(Native::lineAuthValidFor);
    }

    /**
     * Sets the margin: a kept session with {@code seconds} or fewer left counts as expired, so
     * {@link #validForSeconds} reports 0 and {@link #apply} makes a fresh one. 30 seconds by default.
     *
     * @throws InvalidArgumentException when {@code seconds} is not 0 to 86400
     */
    public void setMarginSeconds(long seconds) {
        call(h -> {
            Native.lineAuthSetMargin(h, seconds);
            return null;
        });
    }

    /**
     * At sign-in: sets {@code aloha_token} on {@code request} from a still-valid session, or runs the
     * exchange first when there is none. On failure the request is unchanged and the app signs in without
     * line authentication.
     *
     * @throws ParameterConflictException when the request already has an {@code aloha_token}
     * @throws TelenoridException as {@link #run()} when the exchange fails
     */
    public void apply(@NonNull AuthorizationRequest request) {
        Objects.requireNonNull(request, "request");
        call(h -> request.callExclusive(r -> {
            exchange(() -> Native.lineAuthApply(h, r));
            return null;
        }));
    }

    /**
     * Runs a native exchange, attaching to its exception what the socket hook threw on this thread (suppressed)
     * and what the resolver threw (the cause, through {@link HostCallFailure}).
     */
    private void exchange(Runnable nativeCall) {
        SocketHookCall call = hook.call; // stable: the write lock that changes it waits for this call
        try {
            HostCallFailure.attach(() -> {
                nativeCall.run();
                return null;
            });
        } catch (TelenoridException e) {
            Throwable thrown = call == null ? null : call.takeFailure();
            if (thrown != null) {
                e.addSuppressed(thrown);
            }
            throw e;
        } finally {
            if (call != null) {
                call.takeFailure();
            }
        }
    }
}
