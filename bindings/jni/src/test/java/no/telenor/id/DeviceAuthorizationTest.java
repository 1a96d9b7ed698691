package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The device authorization grant (RFC 8628) against a stand-in provider on 127.0.0.1: the code and URI come
 * through, the approval ends in an auth state, a refusal, an expiry and a hostile answer become their
 * exceptions, and {@link Client#cancel()} ends a wait within 100 ms.
 */
class DeviceAuthorizationTest {
    private HttpServer server;
    private String issuer;
    /** What /token answers next: status and JSON body. */
    private final AtomicReference<Object[]> token = new AtomicReference<>(new Object[] {400, "{\"error\":\"authorization_pending\"}"});
    private final AtomicReference<String> device = new AtomicReference<>();

    private static String deviceAnswer(String interval) {
        return "{\"device_code\":\"dc-1\",\"user_code\":\"WDJB-MJHT\",\"verification_uri\":\"https://id.example/activate\","
                + "\"expires_in\":60,\"interval\":" + interval + "}";
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort();
        server.createContext("/.well-known/openid-configuration", exchange -> answer(exchange, 200,
                "{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
                        + "\"token_endpoint\":\"" + issuer + "/token\",\"device_authorization_endpoint\":\"" + issuer + "/device\"}"));
        server.createContext("/device", exchange -> answer(exchange, 200, device.get()));
        server.createContext("/token", exchange -> {
            Object[] next = token.get();
            answer(exchange, (Integer) next[0], (String) next[1]);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Config config() {
        return Config.builder().issuer(issuer).clientId("tv-app").redirectUri("telenorid-example://cb/").scope("profile").build();
    }

    @Test
    void theApprovalEndsInAnAuthState() throws Exception {
        device.set(deviceAnswer("1"));
        token.set(new Object[] {200, "{\"access_token\":\"device-at\",\"token_type\":\"Bearer\",\"expires_in\":300}"});
        try (Config config = config(); Client client = new Client(config);
             DeviceAuthorization authorization = client.startDeviceAuthorization(null)) {
            assertEquals("WDJB-MJHT", authorization.userCode());
            assertEquals("https://id.example/activate", authorization.verificationUri());
            assertNull(authorization.verificationUriComplete());
            assertEquals(1, authorization.interval());
            long now = System.currentTimeMillis() / 1000;
            assertTrue(authorization.expiresAt() > now + 50 && authorization.expiresAt() <= now + 61);
            try (AuthState state = authorization.awaitApproval()) {
                assertEquals("device-at", state.get(AuthState.Field.ACCESS_TOKEN));
            }
            assertThrows(ConsumedException.class, authorization::awaitApproval);
        }
    }

    @Test
    void refusalExpiryAndHostileAnswers() throws Exception {
        device.set(deviceAnswer("1"));
        try (Config config = config(); Client client = new Client(config);
             DeviceAuthorization authorization = client.startDeviceAuthorization(null)) {
            token.set(new Object[] {400, "{\"error\":\"access_denied\"}"});
            AuthorizationErrorException denied = assertThrows(AuthorizationErrorException.class, authorization::awaitApproval);
            assertEquals("access_denied", denied.oauthError());
            token.set(new Object[] {400, "{\"error\":\"expired_token\"}"});
            assertInstanceOf(ProviderException.class, assertThrows(ExpiredException.class, authorization::awaitApproval));
            device.set(deviceAnswer("-1"));
            assertThrows(InvalidResponseException.class, () -> client.startDeviceAuthorization(null));
        }
    }

    @Test
    void cancelEndsAWaitWithin100Milliseconds() throws Exception {
        device.set(deviceAnswer("30"));
        try (Config config = config(); Client client = new Client(config);
             DeviceAuthorization authorization = client.startDeviceAuthorization(new AuthorizationRequest(config))) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    authorization.awaitApproval();
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
            assertEquals(30, authorization.interval());
        }
    }
}
