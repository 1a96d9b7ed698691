package no.telenor.id;

import java.util.Arrays;
import java.util.Objects;

/**
 * A PKCE verifier and its S256 challenge (RFC 7636), {@code telenorid_pkce}. Immutable; safe to share.
 * The verifier is a secret, wiped in native memory when closed.
 *
 * <p>An authorization request draws its own PKCE pair; this class is for hosts that need one on its own,
 * or to check a test vector.
 */
public final class Pkce extends NativeObject {
    /** The shortest verifier, in characters. */
    public static final int MIN_LENGTH = 43;
    /** The longest verifier, in characters. */
    public static final int MAX_LENGTH = 128;
    /** The length {@link #generate()} uses. */
    public static final int DEFAULT_LENGTH = 64;

    /** The challenge methods ({@code TELENORID_PKCE_*}). */
    public enum Method {
        /** BASE64URL(SHA-256(verifier)): the default and the only safe one. */
        S256(0),
        /** challenge = verifier: refused unless the configuration allows it. */
        PLAIN(1);

        private final int code;

        Method(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    private Pkce(long handle) {
        super(handle, Native::pkceFree);
    }

    /** A random verifier of {@value #DEFAULT_LENGTH} characters from the system's CSPRNG. */
    public static @NonNull Pkce generate() {
        return generate(DEFAULT_LENGTH);
    }

    /**
     * A random verifier of {@code length} characters ({@value #MIN_LENGTH} to {@value #MAX_LENGTH}) drawn
     * from the unreserved set with the system's CSPRNG; 0 means {@value #DEFAULT_LENGTH}, as in C.
     *
     * @throws InvalidArgumentException for a length out of range
     * @throws RandomException when the random generator fails
     */
    public static @NonNull Pkce generate(int length) {
        return new Pkce(Native.pkceNew(length));
    }

    /**
     * A fresh verifier of {@code length} characters ({@value #MIN_LENGTH} to {@value #MAX_LENGTH}; 0 means
     * {@value #DEFAULT_LENGTH}) and its S256 challenge as plain strings, in one native call with no handle
     * to close ({@code telenorid_pkce_generate}): for hosts that need only the two strings. The native and
     * byte copies of the verifier are wiped; the returned String cannot be.
     *
     * @throws InvalidArgumentException for a length out of range
     * @throws RandomException when the random generator fails
     */
    public static @NonNull Pair generatePair(int length) {
        byte[][] pair = Native.pkceGenerate(length);
        String verifier = Utf8.decode(pair[0]);
        Arrays.fill(pair[0], (byte) 0);
        return new Pair(verifier, Utf8.decode(pair[1]));
    }

    /** A verifier and its S256 challenge, from {@link #generatePair}. */
    public static final class Pair {
        private final String verifier;
        private final String challenge;

        private Pair(String verifier, String challenge) {
            this.verifier = verifier;
            this.challenge = challenge;
        }

        /** The verifier: a secret, to be sent only to the token endpoint. */
        public @NonNull String verifier() {
            return verifier;
        }

        /** The S256 challenge. */
        public @NonNull String challenge() {
            return challenge;
        }

        /** Names the type only: the verifier is a secret and stays out of logs. */
        @Override
        public String toString() {
            return "Pkce.Pair";
        }
    }

    /**
     * The pair for a verifier the caller has ({@value #MIN_LENGTH}-{@value #MAX_LENGTH} unreserved characters).
     *
     * @throws InvalidArgumentException for anything else
     */
    public static @NonNull Pkce fromVerifier(@NonNull String verifier) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(verifier, "verifier"));
        return new Pkce(Native.pkceFromVerifier(bytes));
    }

    /** The verifier: a secret, to be sent only to the token endpoint. */
    public @NonNull String verifier() {
        return call(h -> Utf8.decode(Native.pkceVerifier(h)));
    }

    /** The S256 challenge. */
    public @NonNull String challenge() {
        return call(h -> Utf8.decode(Native.pkceChallenge(h)));
    }
}
