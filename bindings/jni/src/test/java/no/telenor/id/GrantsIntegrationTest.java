package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The device authorization grant (RFC 8628) and client-initiated backchannel authentication (OpenID CIBA Core
 * 1.0) signing a user in at real providers through the JNI bridge, as Tests/python/test_device_grant.py and
 * Tests/python/test_ciba.py do through ctypes: django-oauth-toolkit (Tests/support/provider/oidc_provider.py,
 * the user played by browser.py --device) and glewlwyd (Tests/support/glewlwyd_provider.py serve, the user
 * played by its approve-device, approve-ciba and deny-ciba commands). Glewlwyd answers CIBA with a 5 s poll
 * interval, so the CIBA waits are few: one approval and one denial in poll mode, one approval in ping mode.
 */
class GrantsIntegrationTest {
    private static final String GLEWLWYD = "Tests/support/glewlwyd_provider.py";
    /** Glewlwyd takes login_hint only as its own JSON form. */
    private static final String LOGIN_HINT = "{\"username\":\"alice\"}";

    private static Process django;
    private static Process glewlwyd;
    private static String djangoLine;
    private static String glewlwydLine;
    private static String djangoIssuer;
    private static String glewlwydIssuer;
    /** The ping client's notification endpoint (CIBA Core §10.2), handing each ping to the request under way. */
    private static HttpServer receiver;
    private static final AtomicReference<BackchannelAuthentication> pinged = new AtomicReference<>();
    private static final List<Integer> pingAnswers = new CopyOnWriteArrayList<>();
    private static volatile long pingedAt;

    @BeforeAll
    static void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/notify", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            pingedAt = System.nanoTime();
            int status;
            try {
                pinged.get().handlePing(authorization == null ? "" : authorization, new String(body, StandardCharsets.UTF_8));
                status = 204;
            } catch (StateMismatchException e) {
                status = 401;
            } catch (RuntimeException e) {
                status = 400;
            }
            pingAnswers.add(status);
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
        String endpoint = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/notify";

        Process[] started = new Process[1];
        try {
            djangoLine = PythonProcess.startServer("Tests/support/provider/oidc_provider.py", started);
            django = started[0];
            djangoIssuer = field(djangoLine, "issuer");
            glewlwydLine = PythonProcess.startServer(GLEWLWYD, started, "serve", endpoint);
            glewlwyd = started[0];
            glewlwydIssuer = field(glewlwydLine, "issuer");
        } catch (IOException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    @AfterAll
    static void stop() {
        PythonProcess.stopAll(glewlwyd, django);
        receiver.stop(0);
    }

    /** The first string member {@code name} of a server's JSON line ({@code json.dumps}' spacing). */
    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\": \"([^\"]*)\"").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }

    /** {@code member} of django-oauth-toolkit's client {@code client}: "clients": {..., "device_public": {...}}. */
    private static String djangoClient(String client, String member) {
        return field(djangoLine.substring(djangoLine.indexOf("\"" + client + "\": {")), member);
    }

    /** Runs one of the Python helpers playing the user and returns the line it prints. */
    private static String user(String script, String... args) throws IOException, InterruptedException {
        Process process = PythonProcess.builder(script, args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || line == null) {
            process.destroy();
            throw new IOException(script + " " + args[0] + " failed (its error is above)");
        }
        return line;
    }

    /**
     * The user acts 300 ms from now, while the wait the test starts next is under way; when the user fails, the
     * wait is cancelled rather than left to run until the code expires.
     */
    private static FutureTask<String> soon(Client client, String script, String... args) {
        FutureTask<String> task = new FutureTask<>(() -> {
            Thread.sleep(300);
            try {
                return user(script, args);
            } catch (IOException e) {
                client.cancel();
                throw e;
            }
        });
        Thread thread = new Thread(task, "user");
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    private static Config.Builder django(String client) {
        // Its discovery document has no device_authorization_endpoint: configured (RFC 8628 §4 allows either).
        return Config.builder().issuer(djangoIssuer).clientId(djangoClient(client, "client_id"))
                .deviceAuthorizationEndpoint(field(djangoLine, "device_authorization_endpoint")).scope("openid profile");
    }

    private static Config ciba(String clientField, String mode) {
        return Config.builder().issuer(glewlwydIssuer).clientId(field(glewlwydLine, clientField))
                .clientSecret(field(glewlwydLine, "ciba_client_secret")).tokenEndpointAuthMethod("client_secret_basic")
                .backchannelTokenDeliveryMode(mode).build();
    }

    @Test
    void deviceGrantAtDjangoOAuthToolkitApprovedAndDenied() throws Exception {
        String username = field(djangoLine, "username");
        String password = field(djangoLine, "password");
        try (Config config = django("device_public").build(); Client client = new Client(config);
             DeviceAuthorization device = client.startDeviceAuthorization(null)) {
            assertEquals(1, device.interval());
            assertEquals(device.verificationUri() + "?user_code=" + device.userCode(), device.verificationUriComplete());
            FutureTask<String> approval = soon(client, Provider.BROWSER, "--device", device.verificationUri(),
                    device.userCode(), username, password);
            try (AuthState state = device.awaitApproval()) {
                assertEquals("Device Authorized", approval.get(60, TimeUnit.SECONDS));
                assertTrue(state.isSignedIn());
                assertEquals("openid profile", state.get(AuthState.Field.SCOPE));
                assertNull(state.idTokenClaims(), "django-oauth-toolkit sends no ID token for this grant");
                String access = state.get(AuthState.Field.ACCESS_TOKEN);
                state.refresh();
                assertNotEquals(access, state.get(AuthState.Field.ACCESS_TOKEN));
            }
            assertThrows(ConsumedException.class, device::awaitApproval);
        }
        // The confidential client (HTTP Basic); the user says no.
        try (Config config = django("device_confidential").clientSecret(djangoClient("device_confidential", "client_secret"))
                .tokenEndpointAuthMethod("client_secret_basic").build();
             Client client = new Client(config); DeviceAuthorization device = client.startDeviceAuthorization(null)) {
            FutureTask<String> denial = soon(client, Provider.BROWSER, "--device", device.verificationUri(),
                    device.userCode(), username, password, "--deny");
            AuthorizationErrorException denied = assertThrows(AuthorizationErrorException.class, device::awaitApproval);
            assertEquals("Device Denied", denial.get(60, TimeUnit.SECONDS));
            assertEquals("access_denied", denied.oauthError());
        }
    }

    @Test
    void deviceGrantAtGlewlwydValidatesTheIdToken() throws Exception {
        String clientId = field(glewlwydLine, "device_client_id");
        try (Config config = Config.builder().issuer(glewlwydIssuer).clientId(clientId).scope("openid").build();
             Client client = new Client(config);
             DeviceAuthorization device = client.startDeviceAuthorization(null)) { // the endpoint from discovery
            assertEquals(device.verificationUri() + "?code=" + device.userCode(), device.verificationUriComplete());
            FutureTask<String> approval = soon(client, GLEWLWYD, "approve-device", glewlwydIssuer, device.userCode());
            try (AuthState state = device.awaitApproval()) {
                assertTrue(approval.get(60, TimeUnit.SECONDS).contains("prompt=deviceComplete"));
                String claims = state.idTokenClaims(); // validated: signature, iss, aud, exp
                assertTrue(claims.contains("\"iss\":\"" + glewlwydIssuer + "\""), claims);
                assertTrue(claims.contains("\"aud\":\"" + clientId + "\""), claims);
            }
            assertThrows(ConsumedException.class, device::awaitApproval);
        }
    }

    @Test
    void cibaPollAtGlewlwydApprovedThenDenied() throws Exception {
        String clientId = field(glewlwydLine, "ciba_poll_client_id");
        try (Config config = ciba("ciba_poll_client_id", "poll"); Client client = new Client(config)) {
            try (AuthorizationRequest request = new AuthorizationRequest(config).loginHint(LOGIN_HINT).bindingMessage("W4SCT");
                 BackchannelAuthentication auth = client.startBackchannelAuthentication(request)) {
                assertEquals(5, auth.interval());
                long expiresIn = auth.expiresAt() - System.currentTimeMillis() / 1000;
                assertTrue(expiresIn > 595 && expiresIn <= 600, "expires in " + expiresIn);
                assertFalse(auth.authReqId().isEmpty());
                assertThrows(ConfigurationException.class, () -> auth.handlePing("Bearer x", "{\"auth_req_id\":\"x\"}"));
                // The user approves first (the helper waits for the request to show up); the wait then takes it.
                assertTrue(user(GLEWLWYD, "approve-ciba", glewlwydIssuer, clientId).contains("ciba_message=complete"));
                try (AuthState state = auth.awaitApproval()) {
                    String claims = state.idTokenClaims();
                    assertTrue(claims.contains("\"iss\":\"" + glewlwydIssuer + "\""), claims);
                    assertTrue(claims.contains("\"aud\":\"" + clientId + "\""), claims);
                    assertThrows(ConsumedException.class, auth::awaitApproval);

                    try (AuthorizationRequest again = new AuthorizationRequest(config).loginHint(LOGIN_HINT);
                         BackchannelAuthentication refused = client.startBackchannelAuthentication(again)) {
                        assertTrue(user(GLEWLWYD, "deny-ciba", glewlwydIssuer, clientId).contains("ciba_message=cancelled"));
                        AuthorizationErrorException denied = assertThrows(AuthorizationErrorException.class,
                                refused::awaitApproval);
                        assertEquals("access_denied", denied.oauthError());
                    }
                    assertTrue(state.isSignedIn(), "the first sign-in is untouched");
                }
            }
        }
    }

    @Test
    void cibaPingAtGlewlwydWakesTheWait() throws Exception {
        String clientId = field(glewlwydLine, "ciba_ping_client_id");
        try (Config config = ciba("ciba_ping_client_id", "ping"); Client client = new Client(config);
             AuthorizationRequest request = new AuthorizationRequest(config).loginHint(LOGIN_HINT);
             BackchannelAuthentication auth = client.startBackchannelAuthentication(request)) {
            assertThrows(StateMismatchException.class,
                    () -> auth.handlePing("Bearer not-the-token", "{\"auth_req_id\":\"" + auth.authReqId() + "\"}"));
            pingAnswers.clear();
            pinged.set(auth);
            // Glewlwyd pings the receiver before it answers the user.
            FutureTask<String> approval = soon(client, GLEWLWYD, "approve-ciba", glewlwydIssuer, clientId);
            try (AuthState state = auth.awaitApproval()) {
                long returned = System.nanoTime();
                assertTrue(approval.get(60, TimeUnit.SECONDS).contains("ciba_message=complete"));
                assertEquals(List.of(204), pingAnswers);
                assertTrue(state.isSignedIn());
                // Woken by the ping, not by the 5 s interval (a sleep it did not end would last 5 s).
                assertTrue(returned - pingedAt < 4_500_000_000L, "returned " + (returned - pingedAt) / 1_000_000 + " ms after the ping");
            } finally {
                pinged.set(null);
            }
        }
    }
}
