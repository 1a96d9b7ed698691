package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Client-initiated backchannel authentication (OpenID CIBA Core 1.0) against a stand-in provider on 127.0.0.1
 * that signs its ID tokens with an RSA key: poll mode (pending, then tokens), ping mode (a ping with the
 * request's notification token wakes the wait; another token, another auth_req_id or a body that is not JSON
 * is refused), the user's refusal, cancellation, the checks made before any request, and the login hints.
 */
class BackchannelAuthenticationTest {
    private static final String CLIENT_ID = "till-app";
    private static KeyPair key;

    private HttpServer server;
    private String issuer;
    /** What /token answers next: status and JSON body. */
    private final AtomicReference<Object[]> token = new AtomicReference<>();
    /** The interval /bc-authorize acknowledges with. */
    private final AtomicReference<Integer> interval = new AtomicReference<>(1);
    /** The form of the last backchannel authentication request. */
    private final AtomicReference<Map<String, String>> request = new AtomicReference<>();

    @BeforeAll
    static void makeKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        key = generator.generateKeyPair();
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** An unsigned big-endian integer as a JWK member wants it (RFC 7518 §6.3.1). */
    private static String b64(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return b64(bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes);
    }

    private String idToken() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"k1\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64(("{\"iss\":\"" + issuer + "\",\"aud\":\"" + CLIENT_ID + "\",\"sub\":\"alice\",\"iat\":" + now
                + ",\"exp\":" + (now + 300) + "}").getBytes(StandardCharsets.UTF_8));
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(key.getPrivate());
        signature.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return header + "." + claims + "." + b64(signature.sign());
    }

    private Object[] tokens() throws Exception {
        return new Object[] {200, "{\"access_token\":\"ciba-at\",\"token_type\":\"Bearer\",\"expires_in\":300,"
                + "\"id_token\":\"" + idToken() + "\"}"};
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @BeforeEach
    void start() throws Exception {
        token.set(new Object[] {400, "{\"error\":\"authorization_pending\"}"});
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort();
        RSAPublicKey publicKey = (RSAPublicKey) key.getPublic();
        server.createContext("/.well-known/openid-configuration", exchange -> answer(exchange, 200,
                "{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
                        + "\"token_endpoint\":\"" + issuer + "/token\",\"jwks_uri\":\"" + issuer + "/jwks\","
                        + "\"backchannel_authentication_endpoint\":\"" + issuer + "/bc-authorize\"}"));
        server.createContext("/jwks", exchange -> answer(exchange, 200, "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"k1\","
                + "\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\"" + b64(publicKey.getModulus()) + "\",\"e\":\""
                + b64(publicKey.getPublicExponent()) + "\"}]}"));
        server.createContext("/bc-authorize", exchange -> {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            request.set(TestSupport.query("http://x/?" + form));
            answer(exchange, 200, "{\"auth_req_id\":\"arid-1\",\"expires_in\":120,\"interval\":" + interval.get() + "}");
        });
        server.createContext("/token", exchange -> {
            exchange.getRequestBody().readAllBytes();
            Object[] next = token.get();
            answer(exchange, (Integer) next[0], (String) next[1]);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Config config(String mode) {
        return Config.builder().issuer(issuer).clientId(CLIENT_ID).clientSecret("till-secret")
                .tokenEndpointAuthMethod("client_secret_basic").redirectUri("telenorid-example://cb/")
                .scope("openid profile").backchannelTokenDeliveryMode(mode).build();
    }

    private static AuthorizationRequest aliceRequest(Config config) {
        return new AuthorizationRequest(config).loginHint(LoginHints.phoneNumber("+4790000000"));
    }

    @Test
    void pollModeWaitsThroughPendingAndSignsIn() throws Exception {
        try (Config config = config("poll"); Client client = new Client(config);
             AuthorizationRequest hinted = aliceRequest(config).bindingMessage("W4SCT").requestedExpiry(120);
             BackchannelAuthentication auth = client.startBackchannelAuthentication(hinted)) {
            Map<String, String> sent = request.get();
            assertEquals("tel:+4790000000", sent.get("login_hint"));
            assertEquals("W4SCT", sent.get("binding_message"));
            assertEquals("120", sent.get("requested_expiry"));
            assertEquals("openid profile", sent.get("scope"));
            assertNull(sent.get("client_notification_token"));
            assertEquals("arid-1", auth.authReqId());
            assertEquals(1, auth.interval());
            long now = System.currentTimeMillis() / 1000;
            assertTrue(auth.expiresAt() > now + 110 && auth.expiresAt() <= now + 121);
            assertThrows(ConfigurationException.class, () -> auth.handlePing("Bearer x", "{\"auth_req_id\":\"arid-1\"}"));

            Thread approver = new Thread(() -> {
                try {
                    Thread.sleep(1500); // at least one authorization_pending first
                    token.set(tokens());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            approver.start();
            long started = System.nanoTime();
            try (AuthState state = auth.awaitApproval()) {
                assertTrue(System.nanoTime() - started >= 1_400_000_000L, "waited through authorization_pending");
                assertEquals("ciba-at", state.get(AuthState.Field.ACCESS_TOKEN));
                assertTrue(state.isSignedIn());
            }
            approver.join();
            assertThrows(ConsumedException.class, auth::awaitApproval);
        }
    }

    @Test
    void aPingWithTheRequestsTokenWakesTheWait() throws Exception {
        interval.set(30);
        try (Config config = config("ping"); Client client = new Client(config);
             AuthorizationRequest hinted = aliceRequest(config);
             BackchannelAuthentication auth = client.startBackchannelAuthentication(hinted)) {
            String notificationToken = request.get().get("client_notification_token");
            assertTrue(TestSupport.RANDOM_43.matcher(notificationToken).matches(), "256 random bits");
            String body = "{\"auth_req_id\":\"arid-1\"}";

            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    outcome.set(auth.awaitApproval());
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            waiter.start();
            Thread.sleep(300); // the first poll (pending) is behind it; the next would be 30 s later
            token.set(tokens());
            assertThrows(StateMismatchException.class, () -> auth.handlePing("Bearer wrong-token", body));
            assertThrows(StateMismatchException.class, () -> auth.handlePing("Bearer " + notificationToken,
                    "{\"auth_req_id\":\"another\"}"));
            assertThrows(MalformedException.class, () -> auth.handlePing("Bearer " + notificationToken, "not json"));
            waiter.join(1000);
            assertTrue(waiter.isAlive(), "a refused ping does not wake the wait");

            long pinged = System.nanoTime();
            auth.handlePing("Bearer " + notificationToken, body);
            waiter.join(10_000);
            assertTrue(System.nanoTime() - pinged < 5_000_000_000L, "woken long before the 30 s interval");
            AuthState state = assertInstanceOf(AuthState.class, outcome.get());
            try (AuthState signedIn = state) {
                assertEquals("ciba-at", signedIn.get(AuthState.Field.ACCESS_TOKEN));
            }
        }
    }

    @Test
    void theUsersRefusalAndTheChecksBeforeAnyRequest() throws Exception {
        try (Config config = config("poll"); Client client = new Client(config)) {
            try (AuthorizationRequest hinted = aliceRequest(config);
                 BackchannelAuthentication auth = client.startBackchannelAuthentication(hinted)) {
                token.set(new Object[] {400, "{\"error\":\"access_denied\",\"error_description\":\"the user said no\"}"});
                AuthorizationErrorException denied = assertThrows(AuthorizationErrorException.class, auth::awaitApproval);
                assertEquals("access_denied", denied.oauthError());
                token.set(new Object[] {400, "{\"error\":\"expired_token\"}"});
                assertThrows(ExpiredException.class, auth::awaitApproval);
            }
            request.set(null);
            try (AuthorizationRequest none = new AuthorizationRequest(config);
                 AuthorizationRequest two = aliceRequest(config).idTokenHint("a.b.c");
                 AuthorizationRequest noOpenid = aliceRequest(config).scope("profile")) {
                assertThrows(InvalidArgumentException.class, () -> client.startBackchannelAuthentication(none));
                assertThrows(InvalidArgumentException.class, () -> client.startBackchannelAuthentication(two));
                assertThrows(InvalidArgumentException.class, () -> client.startBackchannelAuthentication(noOpenid));
            }
            assertNull(request.get(), "nothing was sent");
            assertThrows(NullPointerException.class, () -> client.startBackchannelAuthentication(null));
        }
    }

    @Test
    void cancelEndsAWaitWithin100Milliseconds() throws Exception {
        interval.set(30);
        try (Config config = config("poll"); Client client = new Client(config);
             AuthorizationRequest hinted = new AuthorizationRequest(config).loginHintToken("opaque-token");
             BackchannelAuthentication auth = client.startBackchannelAuthentication(hinted)) {
            assertEquals("opaque-token", request.get().get("login_hint_token"));
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    auth.awaitApproval();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            Thread.sleep(200);
            long cancelled = System.nanoTime();
            client.cancel();
            waiter.join(10_000);
            assertTrue(System.nanoTime() - cancelled < 100_000_000L, "ended within 100 ms");
            assertInstanceOf(CancelledException.class, thrown.get());
        }
    }

    @Test
    void loginHintsAreBuiltAndCheckedByTheLibrary() {
        assertEquals("tel:+4790000000", LoginHints.phoneNumber("+4790000000"));
        assertEquals("ipport:203.0.113.7:5555", LoginHints.ipPort("203.0.113.7", 5555));
        assertEquals("ipport:[2001:db8::7]:5555", LoginHints.ipPort("2001:db8::7", 5555));
        assertEquals("operatortoken:T0k-en", LoginHints.operatorToken("T0k-en"));
        assertEquals(LoginHints.Form.PHONE_NUMBER, LoginHints.form("tel:+4790000000"));
        assertEquals(LoginHints.Form.IP_PORT, LoginHints.form("ipport:[::1]:80"));
        assertEquals(LoginHints.Form.OPERATOR_TOKEN, LoginHints.form("operatortoken:x"));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.phoneNumber("4790000000"));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.phoneNumber("+0790000000"));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.phoneNumber("+47 900 00 000"));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.ipPort("203.0.113.7", 0));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.ipPort("203.0.113.7", 65536));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.ipPort("203.0.113.7", -1));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.ipPort("[2001:db8::7]", 5555));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.operatorToken(""));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.operatorToken("with space"));
        assertThrows(InvalidArgumentException.class, () -> LoginHints.form("alice@example.com"));
        assertThrows(NullPointerException.class, () -> LoginHints.phoneNumber(null));
    }
}
