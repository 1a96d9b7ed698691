package no.telenor.id;

/**
 * Decides, socket by socket, where the line authentication exchange may connect
 * ({@code telenorid_socket_hook}). Line authentication only means something on the cellular network:
 * Aloha vouches for the line the request arrives on.
 *
 * <p>Called with each socket of the exchange after it is created and before it connects, on the thread
 * running the exchange (the one that called {@link LineAuthenticator#run()} or
 * {@link LineAuthenticator#apply}). An Android app binds the socket to the cellular network here and
 * answers {@link Verdict#NOT_CELLULAR} when there is none:
 *
 * <pre>{@code
 * lineAuth.setSocketHook(fd -> {
 *     Network cellular = cellularNetwork();           // from ConnectivityManager, TRANSPORT_CELLULAR
 *     if (cellular == null) return SocketHook.Verdict.NOT_CELLULAR;
 *     try (ParcelFileDescriptor dup = ParcelFileDescriptor.fromFd(fd)) {
 *         cellular.bindSocket(dup.getFileDescriptor()); // a duplicate binds the same socket
 *         return SocketHook.Verdict.ALLOW;
 *     } catch (IOException e) {
 *         return SocketHook.Verdict.REFUSE;
 *     }
 * });
 * }</pre>
 *
 * <p>The hook must not close {@code fd}. What it throws refuses the socket; the exception is attached
 * to the one the exchange then throws ({@link Throwable#getSuppressed()}).
 */
public interface SocketHook {
    /** What the hook answers for a socket ({@code TELENORID_SOCKET_*}). */
    enum Verdict {
        /** Connect it. */
        ALLOW(0),
        /** Don't: the exchange fails with {@link NetworkException}. */
        REFUSE(1),
        /**
         * Don't: there is no cellular network. The exchange fails with {@link LineAuthUnavailableException},
         * so the app can ask the user to turn Wi-Fi off and try again.
         */
        NOT_CELLULAR(2);

        private final int code;

        Verdict(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    /** The verdict for socket {@code fd}; null refuses it. */
    @Nullable Verdict onSocket(int fd);
}
