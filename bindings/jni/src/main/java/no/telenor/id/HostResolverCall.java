package no.telenor.id;

/**
 * What the bridge calls for each host name of a line authentication exchange (telenorid_jni_line_auth.c looks
 * up {@link #resolve} by name): runs the app's {@link HostResolver} and turns what it throws into a refusal,
 * keeping the throwable for the thread that runs the exchange so that {@link HostCallFailure#attach} can make
 * it the cause of the exchange's exception. Keep from renaming by R8/ProGuard (android/consumer-rules.pro).
 */
final class HostResolverCall {
    private final HostResolver resolver;

    HostResolverCall(HostResolver resolver) {
        this.resolver = resolver;
    }

    /**
     * The verdict for {@code host} (a {@code TELENORID_SOCKET_*} value); with {@code ALLOW}, the addresses as
     * ASCII text in {@code answer[0]}.
     */
    int resolve(byte[] host, int port, byte[][] answer) {
        try {
            HostResolver.Answer resolved = resolver.resolve(Utf8.decode(host), port);
            if (resolved == null) {
                return SocketHook.Verdict.REFUSE.code();
            }
            answer[0] = resolved.text();
            return resolved.verdict().code();
        } catch (Throwable thrown) {
            HostCallFailure.record(thrown);
            return SocketHook.Verdict.REFUSE.code();
        }
    }
}
