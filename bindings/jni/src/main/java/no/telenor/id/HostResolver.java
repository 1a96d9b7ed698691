package no.telenor.id;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Looks up the host names of the line authentication exchange on the network its sockets are bound to
 * ({@code telenorid_host_resolver}). Without one the system resolver answers, on the default network, which
 * on a phone with Wi-Fi is not the cellular network the {@link SocketHook} binds the sockets to.
 *
 * <p>Called for each host name the exchange must look up (not for an IP address literal), on the thread
 * running the exchange (the one that called {@link LineAuthenticator#run()} or {@link LineAuthenticator#apply}).
 * The exchange then connects only to the addresses answered, verifying TLS against the host name as usual. An
 * Android app resolves on the cellular {@code Network} it binds the sockets to:
 *
 * <pre>{@code
 * lineAuth.setResolver((host, port) -> {
 *     Network cellular = cellularNetwork();           // from ConnectivityManager, TRANSPORT_CELLULAR
 *     if (cellular == null) return HostResolver.Answer.NOT_CELLULAR;
 *     return HostResolver.Answer.of(cellular.getAllByName(host));
 * });
 * }</pre>
 *
 * <p>A null answer, {@link Answer#UNRESOLVED} or a throw refuses the name: the exchange fails with
 * {@link NetworkException}, and what the resolver threw becomes that exception's
 * {@link Throwable#getCause() cause}. {@link Answer#NOT_CELLULAR} fails it with
 * {@link LineAuthUnavailableException}. Addresses the library does not take as IP addresses fail it with
 * {@link InvalidArgumentException}. From inside the resolver the app must not call this line authenticator
 * (nor any call into the library that can fail).
 */
public interface HostResolver {
    /**
     * What the resolver answers for a name: its addresses, or why there are none. Immutable.
     */
    final class Answer {
        /** The most addresses an answer may carry ({@code out} of {@code telenorid_host_resolver}). */
        public static final int MAX_ADDRESSES = 16;
        /** The most bytes the addresses take as text, separated by commas ({@code TELENORID_RESOLVER_ANSWER_MAX} less its NUL). */
        public static final int MAX_TEXT_LENGTH = 1023;

        /** There is no cellular network: the exchange fails with {@link LineAuthUnavailableException}. */
        public static final Answer NOT_CELLULAR = new Answer(SocketHook.Verdict.NOT_CELLULAR, null);
        /** The name can't be resolved: the exchange fails with {@link NetworkException}. */
        public static final Answer UNRESOLVED = new Answer(SocketHook.Verdict.REFUSE, null);

        private final SocketHook.Verdict verdict;
        private final byte[] text; // ASCII, without NUL; null unless ALLOW

        private Answer(SocketHook.Verdict verdict, byte[] text) {
            this.verdict = verdict;
            this.text = text;
        }

        /**
         * The addresses of the name: IPv4 dotted quads and IPv6 addresses without brackets or zone, at least
         * one and at most {@link #MAX_ADDRESSES}.
         *
         * @throws IllegalArgumentException when there are none or too many, when one is empty or not printable
         *         ASCII without spaces or commas, or when together they are longer than {@link #MAX_TEXT_LENGTH}
         * @throws NullPointerException when {@code addresses} or one of them is null
         */
        public static @NonNull Answer of(@NonNull List<String> addresses) {
            Objects.requireNonNull(addresses, "addresses");
            if (addresses.isEmpty() || addresses.size() > MAX_ADDRESSES) {
                throw new IllegalArgumentException("a resolver answers 1 to " + MAX_ADDRESSES + " addresses, not "
                        + addresses.size());
            }
            StringBuilder text = new StringBuilder();
            for (String address : addresses) {
                Objects.requireNonNull(address, "address");
                if (address.isEmpty()) {
                    throw new IllegalArgumentException("an empty address");
                }
                for (int i = 0; i < address.length(); i++) {
                    char c = address.charAt(i);
                    if (c <= ' ' || c >= 0x7f || c == ',') {
                        throw new IllegalArgumentException("not an address: " + address);
                    }
                }
                if (text.length() > 0) {
                    text.append(',');
                }
                text.append(address);
            }
            if (text.length() > MAX_TEXT_LENGTH) {
                throw new IllegalArgumentException("the addresses take " + text.length() + " bytes, more than "
                        + MAX_TEXT_LENGTH);
            }
            return new Answer(SocketHook.Verdict.ALLOW, text.toString().getBytes(StandardCharsets.US_ASCII));
        }

        /** {@link #of(List)} of {@code addresses}. */
        public static @NonNull Answer of(@NonNull String... addresses) {
            return of(Arrays.asList(Objects.requireNonNull(addresses, "addresses")));
        }

        /**
         * {@link #of(List)} of the numeric forms of {@code addresses} (an IPv6 address without its zone), as
         * {@code Network.getAllByName} or {@link InetAddress#getAllByName} give them.
         */
        public static @NonNull Answer of(@NonNull InetAddress... addresses) {
            Objects.requireNonNull(addresses, "addresses");
            String[] numeric = new String[addresses.length];
            for (int i = 0; i < addresses.length; i++) {
                InetAddress address = Objects.requireNonNull(addresses[i], "address");
                String text = address.getHostAddress();
                int zone = text.indexOf('%');
                numeric[i] = address instanceof Inet6Address && zone >= 0 ? text.substring(0, zone) : text;
            }
            return of(numeric);
        }

        /** ALLOW with addresses, REFUSE for {@link #UNRESOLVED}, NOT_CELLULAR. */
        SocketHook.Verdict verdict() {
            return verdict;
        }

        /** The addresses as the library reads them (ASCII, comma-separated, no NUL); a copy; null without any. */
        byte[] text() {
            return text == null ? null : text.clone();
        }

        @Override
        public String toString() {
            return text == null ? verdict.name() : new String(text, StandardCharsets.US_ASCII);
        }
    }

    /**
     * The addresses of {@code host} for connecting to {@code port}, looked up on the network the exchange must
     * use; null or {@link Answer#UNRESOLVED} when it can't be resolved, {@link Answer#NOT_CELLULAR} when there
     * is no cellular network. What it throws refuses the name too.
     */
    @Nullable Answer resolve(@NonNull String host, int port) throws Exception;
}
