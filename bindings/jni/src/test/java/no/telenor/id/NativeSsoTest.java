package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0, draft 07) from Java. The whole flow runs against
 * the double every language's Native SSO test starts, Tests/support/native_sso_provider.py (TEST DOUBLE: no
 * provider installed here implements Native SSO; see there), in a subprocess: the first app signs in with
 * {@code openid device_sso} (the code flow with PKCE, the browser's part played by the script's
 * {@code authorize}) and the second app, another client id, signs the same user in from its ID token and device
 * secret. The refusals, the second app's client signing in again after each: a device secret whose hash the ID
 * token does not carry and an ID token of another issuer (a second double), both refused before any request (the
 * double counts the requests it received); the provider's invalid_grant once the first app has revoked its grant
 * (which ends the device session at the double). Without a provider: the pair an app hands over is checked before
 * anything is sent (§3.4's ds_hash, the scope's openid), and the device secret's token type and field are the
 * header's.
 */
class NativeSsoTest {
    private static final String DOUBLE = "Tests/support/native_sso_provider.py";
    /** The vendor's two apps, as the double registers them (its APPS). */
    private static final String APP_ONE = "vendor-app-one";
    private static final String APP_TWO = "vendor-app-two";
    private static final String REDIRECT_ONE = "com.example.one:/callback";
    private static final String REDIRECT_TWO = "com.example.two:/callback";
    /** Unsigned: only its claims are read before the exchange. Its ds_hash is that of "device-secret". */
    private static final String ID_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwic3ViIjoi"
            + "YWxpY2UiLCJkc19oYXNoIjoiRTlfZ2Z3Mmw2STVPRWlzalF3QmNkdyJ9.c2ln";

    private static SsoDouble provider;
    private static SsoDouble elsewhere;

    /** A running double: its issuer, and how many HTTP requests it has received (a line "requests" asks). */
    private static final class SsoDouble implements AutoCloseable {
        final String issuer;
        private final Process process;
        private final BufferedReader out;

        SsoDouble() throws IOException {
            Process[] started = new Process[1];
            String line = PythonProcess.startServer(DOUBLE, started);
            process = started[0];
            issuer = field(line, "issuer");
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        long requestsReceived() throws IOException {
            OutputStream in = process.getOutputStream();
            in.write("requests\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            Matcher count = Pattern.compile("\"requests\": (\\d+)").matcher(String.valueOf(out.readLine()));
            assertTrue(count.find(), "the double did not say how many requests it received");
            return Long.parseLong(count.group(1));
        }

        Client client(String clientId, String redirectUri) {
            return new Client(Config.builder().issuer(issuer).clientId(clientId).redirectUri(redirectUri)
                    .scope("openid device_sso").build());
        }

        @Override
        public void close() {
            PythonProcess.stopAll(process);
        }
    }

    @BeforeAll
    static void start() throws IOException {
        try {
            provider = new SsoDouble();
            elsewhere = new SsoDouble();
        } catch (IOException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    @AfterAll
    static void stop() {
        for (SsoDouble running : new SsoDouble[] {elsewhere, provider}) {
            if (running != null) {
                running.close();
            }
        }
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\": ?\"([^\"]*)\"").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }

    /** The first app's sign-in, the code flow with PKCE and §3.1's device_sso in the scope. */
    private static AuthState firstAppSignsIn(Client client) throws IOException, InterruptedException {
        try (Config discovered = client.config();
             AuthorizationRequest request = new AuthorizationRequest(discovered);
             PendingAuthorization pending = client.buildAuthorization(request)) {
            Process browser = PythonProcess.builder(DOUBLE, "authorize", pending.url())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String redirect = new BufferedReader(new InputStreamReader(browser.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertEquals(0, browser.waitFor());
            try (AuthorizationCallback callback = pending.handleCallback(redirect)) {
                return client.exchangeCode(callback);
            }
        }
    }

    /** The second app signs in from the pair: the same user and device session, for the second app. */
    private static void secondAppSignsIn(Client second, String idToken, String deviceSecret, String sid) {
        try (AuthState state = second.nativeSso(idToken, deviceSecret, null)) {
            assertTrue(state.isSignedIn());
            assertTrue(state.freshAccessToken().startsWith("at-"));
            assertTrue(state.get(AuthState.Field.REFRESH_TOKEN).startsWith("rt-"));
            String claims = state.idTokenClaims();
            assertNotNull(claims);
            assertEquals("alice", field(claims, "sub"));
            assertEquals(APP_TWO, field(claims, "aud"));
            assertEquals(sid, field(claims, "sid"));
            assertEquals(deviceSecret, state.deviceSecret(), "the one in force, kept for the next app");
        }
    }

    @Test
    void theSecondAppSignsInFromTheFirstAppsSignIn() throws Exception {
        try (Client one = provider.client(APP_ONE, REDIRECT_ONE);
             Client two = provider.client(APP_TWO, REDIRECT_TWO);
             AuthState first = firstAppSignsIn(one)) {
            String secret = first.deviceSecret();
            assertNotNull(secret);
            assertTrue(secret.startsWith("ds-"));
            secondAppSignsIn(two, first.get(AuthState.Field.ID_TOKEN), secret, field(first.idTokenClaims(), "sid"));
        }
    }

    @Test
    void aWrongSecretOrAnotherIssuersIdTokenIsRefusedBeforeAnyRequest() throws Exception {
        try (Client one = provider.client(APP_ONE, REDIRECT_ONE);
             Client two = provider.client(APP_TWO, REDIRECT_TWO);
             AuthState first = firstAppSignsIn(one);
             Client oneElsewhere = elsewhere.client(APP_ONE, REDIRECT_ONE);
             AuthState firstElsewhere = firstAppSignsIn(oneElsewhere)) {
            String idToken = first.get(AuthState.Field.ID_TOKEN);
            String secret = first.deviceSecret();
            String sid = field(first.idTokenClaims(), "sid");
            secondAppSignsIn(two, idToken, secret, sid);

            // A device secret that is not the ID token's (§3.4's ds_hash).
            long here = provider.requestsReceived();
            long there = elsewhere.requestsReceived();
            InvalidArgumentException hash = assertThrows(InvalidArgumentException.class,
                    () -> two.nativeSso(idToken, "ds-not-the-device-secret", null));
            assertTrue(hash.message().contains("ds_hash"), hash.message());
            assertEquals(here, provider.requestsReceived());
            secondAppSignsIn(two, idToken, secret, sid);

            // An ID token of another issuer, with its own device secret.
            here = provider.requestsReceived();
            InvalidArgumentException issuer = assertThrows(InvalidArgumentException.class,
                    () -> two.nativeSso(firstElsewhere.get(AuthState.Field.ID_TOKEN), firstElsewhere.deviceSecret(), null));
            assertTrue(issuer.message().contains("issuer"), issuer.message());
            assertEquals(here, provider.requestsReceived());
            assertEquals(there, elsewhere.requestsReceived());
            secondAppSignsIn(two, idToken, secret, sid);
        }
    }

    @Test
    void theProvidersRefusal() throws Exception {
        try (Client one = provider.client(APP_ONE, REDIRECT_ONE);
             Client two = provider.client(APP_TWO, REDIRECT_TWO);
             AuthState first = firstAppSignsIn(one)) {
            String idToken = first.get(AuthState.Field.ID_TOKEN);
            String secret = first.deviceSecret();
            String sid = field(first.idTokenClaims(), "sid");
            // Revoking the first app's grant ends the device session at the double.
            first.revoke();
            AuthorizationErrorException refused = assertThrows(AuthorizationErrorException.class,
                    () -> two.nativeSso(idToken, secret, null));
            assertEquals("invalid_grant", refused.oauthError());
            assertEquals("the device session has ended", refused.oauthErrorDescription());
            assertEquals(400, refused.httpStatus());
            assertFalse(String.valueOf(refused.getMessage()).contains(secret));
            // A new sign-in of the first app, a new device session: the second app signs in from its pair.
            try (AuthState again = firstAppSignsIn(one)) {
                String newSid = field(again.idTokenClaims(), "sid");
                assertNotEquals(sid, newSid);
                assertNotEquals(secret, again.deviceSecret());
                secondAppSignsIn(two, again.get(AuthState.Field.ID_TOKEN), again.deviceSecret(), newSid);
            }
        }
    }

    @Test
    void aMismatchedPairNeverLeavesTheDevice() {
        Config config = Config.builder().issuer("https://id.example.com").clientId("app-two").build();
        try (Client client = new Client(config)) {
            InvalidArgumentException hash = assertThrows(InvalidArgumentException.class,
                    () -> client.nativeSso(ID_TOKEN, "another-secret", null));
            assertTrue(hash.message().contains("ds_hash"), hash.message());
            InvalidArgumentException scope = assertThrows(InvalidArgumentException.class,
                    () -> client.nativeSso(ID_TOKEN, "device-secret", "profile"));
            assertTrue(scope.message().contains("openid"), scope.message());
            assertThrows(InvalidArgumentException.class, () -> client.nativeSso("not-a-jwt", "device-secret", null));
            assertThrows(NullPointerException.class, () -> client.nativeSso(ID_TOKEN, null, null));
        }
    }

    @Test
    void theDeviceSecretsTypeAndField() {
        assertEquals("urn:openid:params:token-type:device-secret", TokenType.DEVICE_SECRET);
        assertEquals(9, AuthState.Field.DEVICE_SECRET.code());
    }
}
