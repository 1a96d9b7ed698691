package no.telenor.id;

/**
 * Signs with a key the app holds, such as one in the Android Keystore ({@code telenorid_sign_callback}):
 * DPoP proofs (RFC 9449) with {@link Client#setDPoPSigner}, the client's own assertions and request objects
 * (RFC 7523, RFC 9101) with {@link Client#setClientSigner}.
 *
 * <p>Called with each JWS signing input (the ASCII {@code header.payload}), on the thread making
 * the request, possibly on several threads at once. Return the signature as JWS carries it (RFC 7518
 * §3): for ES256 the raw {@code r||s}, 64 bytes. The Android Keystore's {@code SHA256withECDSA} returns a
 * DER {@code SEQUENCE} of two {@code INTEGER}s instead: the app must convert it (each integer without its
 * sign byte, left-padded to 32 bytes). For PS256 and EdDSA the plain signature. At most 1024 bytes.
 *
 * <p>What it throws, or a null result, fails the request with {@link InvalidArgumentException}; a thrown
 * exception becomes that exception's {@link Throwable#getCause() cause}.
 */
public interface HostKeySigner {
    /** The signature of {@code signingInput}. */
    @NonNull byte[] sign(@NonNull byte[] signingInput) throws Exception;
}
