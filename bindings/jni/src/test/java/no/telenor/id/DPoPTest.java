package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * DPoP (RFC 9449) through the bridge without a provider: the app's signer (an ES256 key made with
 * java.security standing in for the Android Keystore) checked, installed, called from a request's headers
 * and kept alive after the client is closed; the headers of Bearer and DPoP states restored from JSON.
 */
class DPoPTest {
    /** Far in the future, so that no request refreshes (which would need the network). */
    private static final long FAR_FUTURE = 4_102_444_800L; // 2100-01-01
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64URL_DECODER = Base64.getUrlDecoder();

    private static final HostKeySigner NEVER = input -> {
        throw new AssertionError("not called");
    };

    private static Config config() {
        return TestSupport.baseConfig().dpopSigningAlgorithm("ES256").build();
    }

    private static KeyPair p256() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** An unsigned big-endian integer of exactly 32 bytes, P-256's size (RFC 7518 §6.2.1.2). */
    private static String coordinate(BigInteger value) {
        return coordinate(value, 32);
    }

    /** An unsigned big-endian integer of exactly {@code size} bytes. */
    private static String coordinate(BigInteger value, int size) {
        byte[] bytes = value.toByteArray();
        byte[] fixed = new byte[size];
        int length = Math.min(bytes.length, size);
        System.arraycopy(bytes, bytes.length - length, fixed, size - length, length);
        return B64URL.encodeToString(fixed);
    }

    /** The JWK with a private member added: never acceptable as a signer's public key. */
    private static String withPrivateMember(String jwk) {
        return jwk.substring(0, jwk.length() - 1) + ",\"d\":\"" + coordinate(BigInteger.ONE) + "\"}";
    }

    /** The public JWK in RFC 7638's canonical member order, which is also its thumbprint input. */
    private static String publicJwk(KeyPair pair) {
        ECPublicKey key = (ECPublicKey) pair.getPublic();
        return "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"" + coordinate(key.getW().getAffineX())
                + "\",\"y\":\"" + coordinate(key.getW().getAffineY()) + "\"}";
    }

    private static String thumbprint(KeyPair pair) throws Exception {
        return B64URL.encodeToString(sha256(publicJwk(pair)));
    }

    private static byte[] sha256(String text) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** An ES256 signer as the app writes one: raw r||s (P1363), as JWS carries it. */
    private static HostKeySigner signer(KeyPair pair, AtomicInteger calls) {
        return input -> {
            calls.incrementAndGet();
            Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
            signature.initSign(pair.getPrivate());
            signature.update(input);
            return signature.sign();
        };
    }

    private static String state(String tokenType, String extra) {
        return "{\"version\":1,\"access_token\":\"at\",\"token_type\":\"" + tokenType + "\",\"expires_at\":"
                + FAR_FUTURE + extra + "}";
    }

    private static String member(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static String decodePart(String part) {
        return new String(B64URL_DECODER.decode(part), StandardCharsets.UTF_8);
    }

    @Test
    void refusesAJwkThatIsNotAPublicKeyForTheAlgorithm() throws Exception {
        KeyPair pair = p256();
        try (Config config = config(); Client client = new Client(config)) {
            String jwk = publicJwk(pair);
            String withD = withPrivateMember(jwk);
            assertThrows(InvalidArgumentException.class, () -> client.setDPoPSigner("ES256", withD, NEVER));
            assertThrows(InvalidArgumentException.class, () -> client.setDPoPSigner("ES256", "not json", NEVER));
            assertThrows(InvalidArgumentException.class, () -> client.setDPoPSigner("ES256", "[]", NEVER));
            assertThrows(InvalidArgumentException.class, () -> client.setDPoPSigner("PS256", jwk, NEVER));
            assertThrows(NullPointerException.class, () -> client.setDPoPSigner("ES256", jwk, null));
        }
    }

    @Test
    void theClientKeySignerIsCheckedInstalledAndCleared() throws Exception {
        KeyPair pair = p256();
        try (Config config = config(); Client client = new Client(config)) {
            String jwk = publicJwk(pair);
            String withD = withPrivateMember(jwk);
            assertThrows(InvalidArgumentException.class, () -> client.setClientSigner("ES256", withD, NEVER));
            assertThrows(InvalidArgumentException.class, () -> client.setClientSigner("HS256", jwk, NEVER));
            client.setClientSigner("ES256", jwk, NEVER);
            client.clearClientSigner();
            client.clearClientSigner();
        }
        // FAPI 2.0 §5.4.1: a host key must sign PS256, ES256 or EdDSA; an ES384 key is refused.
        try (Config fapi = TestSupport.baseConfig().dpopSigningAlgorithm("ES256").securityProfile("fapi2")
                .tokenEndpointAuthMethod("private_key_jwt").build(); Client client = new Client(fapi)) {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp384r1"));
            ECPublicKey p384 = (ECPublicKey) generator.generateKeyPair().getPublic();
            String jwk384 = "{\"crv\":\"P-384\",\"kty\":\"EC\",\"x\":\"" + coordinate(p384.getW().getAffineX(), 48)
                    + "\",\"y\":\"" + coordinate(p384.getW().getAffineY(), 48) + "\"}";
            assertThrows(ConfigurationException.class, () -> client.setClientSigner("ES384", jwk384, NEVER));
            client.setClientSigner("ES256", publicJwk(pair), NEVER);
        }
    }

    @Test
    void acceptsAPublicJwkAndClears() throws Exception {
        KeyPair pair = p256();
        AtomicInteger calls = new AtomicInteger();
        try (Config config = config(); Client client = new Client(config)) {
            client.setDPoPSigner("ES256", publicJwk(pair), signer(pair, calls));
            client.clearDPoPSigner();
            client.clearDPoPSigner();
            client.setDPoPSigner("ES256", publicJwk(pair), signer(pair, calls));
            client.setDPoPSigner("ES256", publicJwk(p256()), signer(pair, calls)); // replaces it
        }
        assertEquals(0, calls.get()); // nothing signed without a request
    }

    @Test
    void signedOutStateHasNoHeaders() {
        try (Config config = config(); Client client = new Client(config);
             AuthState state = client.restore("{\"version\":1}")) {
            assertThrows(NotSignedInException.class, () -> state.requestHeaders("GET", "https://api.example.com/", null));
            assertNull(state.dpopThumbprint());
        }
    }

    @Test
    void bearerStateGivesBearerHeaderAndNoProof() {
        try (Config config = config(); Client client = new Client(config);
             AuthState state = client.restore(state("Bearer", ""))) {
            RequestHeaders headers = state.requestHeaders("GET", "https://api.example.com/me", null);
            assertEquals("Bearer at", headers.authorization());
            assertNull(headers.dpop());
            assertEquals("RequestHeaders[Bearer]", headers.toString());
            assertNull(state.dpopThumbprint());
            assertEquals("Bearer", state.get(AuthState.Field.TOKEN_TYPE));
        }
    }

    @Test
    void dpopStateWithoutItsKeyIsRefused() throws Exception {
        try (Config config = config(); Client client = new Client(config)) {
            assertThrows(MalformedException.class, () -> client.restore(state("DPoP", "")));
            // Bound to a host-held key, but the client has no signer for it (or another key's).
            String bound = state("DPoP", ",\"dpop_jkt\":\"" + thumbprint(p256()) + "\"");
            assertThrows(ConfigurationException.class, () -> client.restore(bound));
            KeyPair other = p256();
            client.setDPoPSigner("ES256", publicJwk(other), signer(other, new AtomicInteger()));
            assertThrows(ConfigurationException.class, () -> client.restore(bound));
        }
    }

    @Test
    void hostKeyStateSignsProofsWithTheAppsSigner() throws Exception {
        KeyPair pair = p256();
        AtomicInteger calls = new AtomicInteger();
        String url = "https://api.example.com/resource";
        try (Config config = config(); Client client = new Client(config)) {
            client.setDPoPSigner("ES256", publicJwk(pair), signer(pair, calls));
            try (AuthState state = client.restore(state("DPoP", ",\"dpop_jkt\":\"" + thumbprint(pair) + "\""))) {
                assertEquals(thumbprint(pair), state.dpopThumbprint());
                assertEquals(thumbprint(pair), state.get(AuthState.Field.DPOP_THUMBPRINT));

                RequestHeaders headers = state.requestHeaders("POST", url + "?page=2#top", null);
                assertEquals("DPoP at", headers.authorization());
                assertEquals(1, calls.get());
                String proof = headers.dpop();
                assertNotNull(proof);
                String[] parts = proof.split("\\.", -1);
                assertEquals(3, parts.length);
                String header = decodePart(parts[0]), payload = decodePart(parts[1]);
                assertEquals("dpop+jwt", member(header, "typ"));
                assertEquals("ES256", member(header, "alg"));
                String key = publicJwk(pair);
                assertEquals(member(key, "x"), member(header, "x"));
                assertEquals(member(key, "y"), member(header, "y"));
                assertEquals("POST", member(payload, "htm"));
                assertEquals(url, member(payload, "htu")); // RFC 9449 §4.2: without query and fragment
                assertEquals(B64URL.encodeToString(sha256("at")), member(payload, "ath"));
                assertNotNull(member(payload, "jti"));

                Signature verify = Signature.getInstance("SHA256withECDSAinP1363Format");
                verify.initVerify(pair.getPublic());
                verify.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
                assertTrue(verify.verify(B64URL_DECODER.decode(parts[2])));

                // A resource's nonce goes into the next proof (RFC 9449 §9).
                String withNonce = state.requestHeaders("GET", url, "nonce-1").dpop();
                assertEquals("nonce-1", member(decodePart(withNonce.split("\\.")[1]), "nonce"));

                // The resource's answer decides the one retry; a nonce on any answer is kept (RFC 9449 §8.2, §9).
                assertFalse(state.resourceAnswered(url, 200, null, "nonce-2", "DPoP at"));
                assertEquals("nonce-2", member(decodePart(state.requestHeaders("GET", url, null).dpop()
                        .split("\\.")[1]), "nonce"));
                assertTrue(state.resourceAnswered(url, 401, "DPoP error=\"use_dpop_nonce\"", "nonce-3", "DPoP at"));
                assertFalse(state.resourceAnswered(url, 401, "Bearer error=\"insufficient_user_authentication\"",
                        null, "DPoP at"));
                assertThrows(InvalidArgumentException.class, () -> state.resourceAnswered(url, 42, null, null, "DPoP at"));

                // The serialized state keeps only the thumbprint, never a key.
                String saved = state.serialize();
                assertEquals(thumbprint(pair), member(saved, "dpop_jkt"));
                assertNull(member(saved, "dpop_key"));
            }
        }
    }

    @Test
    void signerFailuresFailTheRequestWithTheCause() throws Exception {
        KeyPair pair = p256();
        String restored = state("DPoP", ",\"dpop_jkt\":\"" + thumbprint(pair) + "\"");
        Exception thrown = new java.security.SignatureException("keystore locked");
        AtomicReference<byte[]> answer = new AtomicReference<>();
        try (Config config = config(); Client client = new Client(config)) {
            client.setDPoPSigner("ES256", publicJwk(pair), input -> {
                byte[] bytes = answer.get();
                if (bytes == null) {
                    throw thrown;
                }
                return bytes.length == 0 ? null : bytes;
            });
            try (AuthState state = client.restore(restored)) {
                InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                        () -> state.requestHeaders("GET", "https://api.example.com/", null));
                assertSame(thrown, e.getCause());

                answer.set(new byte[0]); // the signer returns null
                e = assertThrows(InvalidArgumentException.class,
                        () -> state.requestHeaders("GET", "https://api.example.com/", null));
                assertNull(e.getCause());

                answer.set(new byte[1025]); // longer than any JWS signature
                assertThrows(InvalidArgumentException.class,
                        () -> state.requestHeaders("GET", "https://api.example.com/", null));

                // A failure does not linger: the next request with a working signature succeeds.
                byte[] garbage = new byte[64];
                Arrays.fill(garbage, (byte) 7);
                answer.set(garbage);
                String proof = state.requestHeaders("GET", "https://api.example.com/", null).dpop();
                assertArrayEquals(garbage, B64URL_DECODER.decode(proof.split("\\.")[2]));
            }
        }
    }

    @Test
    void signerOutlivesTheClientWhileItsStatesRun() throws Exception {
        KeyPair pair = p256();
        AtomicInteger calls = new AtomicInteger();
        Client client = new Client(config());
        client.setDPoPSigner("ES256", publicJwk(pair), signer(pair, calls));
        AuthState state = client.restore(state("DPoP", ",\"dpop_jkt\":\"" + thumbprint(pair) + "\""));
        AtomicInteger replacement = new AtomicInteger();
        client.setDPoPSigner("ES256", publicJwk(pair), signer(pair, replacement)); // the same key, set again
        client.close();
        // The state keeps the native client, and the signer for its key, alive.
        AtomicReference<RequestHeaders> other = new AtomicReference<>();
        Thread thread = new Thread(() -> other.set(state.requestHeaders("GET", "https://api.example.com/", null)));
        thread.start();
        thread.join();
        assertEquals("DPoP at", other.get().authorization());
        assertEquals("DPoP at", state.requestHeaders("GET", "https://api.example.com/", null).authorization());
        assertEquals(0, calls.get());
        assertEquals(2, replacement.get());
        state.close();
    }
}
