package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BackchannelLogout}, {@link LogoutToken}, {@link Accounts#backchannelLogout},
 * {@link AuthState#backchannelLogout} and {@link AuthState#signOut} through the JNI bridge (OpenID Connect
 * Back-Channel Logout 1.0). The logout tokens are signed by this test, HS256 with the client secret (an
 * algorithm an ID token may use too: the library takes the client's ID-token algorithm rules, here
 * {@code ID_TOKEN_SIGNING_ALGS = HS256}), so no key set, no provider and no network are needed; the
 * signed-in states are restored from their serialized form (an ID token's signature is checked at sign-in,
 * not on restore). As Tests/c/test_backchannel_logout.c does in C; the same flow against a real provider's
 * tokens (idpyoidc) is Tests/python/test_backchannel_logout.py's.
 */
class BackchannelLogoutTest {
    private static final String ISSUER = "https://id.example.com";
    private static final String CLIENT_ID = "rp";
    private static final String SECRET = "a secret of the relying party, 32 bytes or more long";
    private static final String EVENT = "\"events\":{\"http://schemas.openid.net/event/backchannel-logout\":{}}";

    @TempDir
    Path dir;

    private static String base64url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String base64url(String text) {
        return base64url(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A compact JWS (RFC 7515 §7.1) of {@code header} and {@code payload}, HS256 with {@code secret}. */
    private static String sign(String header, String payload, String secret) throws Exception {
        String input = base64url(header) + "." + base64url(payload);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return input + "." + base64url(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /** A logout token (§2.4) issued {@code age} seconds ago with {@code jti}, {@code claims} put in; typ logout+jwt. */
    private static String logoutToken(String jti, long age, String claims) throws Exception {
        String payload = "{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + CLIENT_ID + "\",\"iat\":" + (now() - age)
                + ",\"exp\":" + (now() + 120) + ",\"jti\":\"" + jti + "\"," + EVENT
                + (claims.isEmpty() ? "" : "," + claims) + "}";
        return sign("{\"alg\":\"HS256\",\"typ\":\"logout+jwt\"}", payload, SECRET);
    }

    private static Client client() {
        try (Config config = Config.builder().issuer(ISSUER).clientId(CLIENT_ID).clientSecret(SECRET)
                .set(Config.Key.ID_TOKEN_SIGNING_ALGS, "HS256").build()) {
            return new Client(config);
        }
    }

    /** A signed-in state of {@code sub} (with {@code sid} when not null), restored from its serialized form. */
    private static AuthState signedIn(Client client, String sub, String sid) {
        String claims = "{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + sub + "\",\"aud\":\"" + CLIENT_ID + "\""
                + (sid == null ? "" : ",\"sid\":\"" + sid + "\"") + "}";
        return client.restore("{\"version\":1,\"issuer\":\"" + ISSUER + "\",\"client_id\":\"" + CLIENT_ID
                + "\",\"access_token\":\"at-" + sub + "\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-" + sub
                + "\",\"id_token\":\"e30." + base64url(claims) + ".c2ln\"}");
    }

    private static void assertRefused(BackchannelLogout logout, String jws, String because) {
        TokenInvalidException refused = assertThrows(TokenInvalidException.class, () -> logout.validate(jws));
        assertTrue(String.valueOf(refused.message()).contains(because), refused.message());
    }

    @Test
    void validatesAsSection26Lists() throws Exception {
        try (Client client = client(); BackchannelLogout logout = new BackchannelLogout(client)) {
            assertEquals(client, logout.client());
            String jws = logoutToken("jti-1", 0, "\"sub\":\"alice\",\"sid\":\"s-1\"");
            try (LogoutToken token = logout.validate(jws)) {
                assertEquals("alice", token.subject());
                assertEquals("s-1", token.sessionId());
                assertEquals(ISSUER, token.issuer());
                assertEquals("jti-1", token.tokenId());
                assertTrue(token.json().contains("http://schemas.openid.net/event/backchannel-logout"), token.json());
            }
            // §2.6 step 8: the same token again is a replay.
            assertRefused(logout, jws, "was received before");

            try (LogoutToken sidOnly = logout.validate(logoutToken("jti-2", 0, "\"sid\":\"s-2\""))) {
                assertNull(sidOnly.subject());
                assertEquals("s-2", sidOnly.sessionId());
            }
            assertRefused(logout, "not.a-token", "is not a JWS");
            assertRefused(logout, logoutToken("jti-3", 0, "\"sub\":\"alice\",\"nonce\":\"n-0S6_WzA2Mj\""),
                    "carries a nonce");
            assertRefused(logout, logoutToken("jti-4", 0, ""), "names neither a sub nor a sid");
            String old = logoutToken("jti-5", 600, "\"sub\":\"alice\"");
            assertRefused(logout, old, "is older than 300 s");
            // The app's window: ten minutes back is within an hour.
            logout.setMaxAge(3600);
            logout.validate(old).close();
            assertThrows(InvalidArgumentException.class, () -> logout.setMaxAge(0));
            assertThrows(InvalidArgumentException.class, () -> logout.setMaxAge(86401));

            String claims = "\"iss\":\"" + ISSUER + "\",\"iat\":" + now() + ",\"sub\":\"alice\"";
            assertRefused(logout, sign("{\"alg\":\"HS256\"}",
                    "{" + claims + ",\"aud\":\"" + CLIENT_ID + "\",\"jti\":\"jti-6\"}", SECRET), "has no events object");
            assertRefused(logout, sign("{\"alg\":\"HS256\"}",
                    "{" + claims + ",\"aud\":\"another\",\"jti\":\"jti-7\"," + EVENT + "}", SECRET),
                    "is not meant for this client");
            String payload = "{" + claims + ",\"aud\":\"" + CLIENT_ID + "\",\"jti\":\"jti-8\"," + EVENT + "}";
            assertRefused(logout, sign("{\"alg\":\"HS256\",\"typ\":\"at+jwt\"}", payload, SECRET), "not logout+jwt");
            assertRefused(logout, sign("{\"alg\":\"HS256\"}", payload, "another secret, as long as the client's but not it"),
                    "signature");
        }
    }

    @Test
    void signsOutWhatTheTokenNames() throws Exception {
        try (Client client = client(); BackchannelLogout logout = new BackchannelLogout(client);
             Accounts accounts = client.openAccounts(new DirectoryStore(dir.toString()), "app");
             AuthState alice = signedIn(client, "alice", "s-alice"); AuthState bob = signedIn(client, "bob", "s-bob");
             AuthState carol = signedIn(client, "carol", null)) {
            String aliceId = accounts.add(alice);
            String bobId = accounts.add(bob);
            String carolId = accounts.add(carol);

            // By sid: bob's session, dropped; again, nobody is left to name.
            try (LogoutToken token = logout.validate(logoutToken("a-1", 0, "\"sid\":\"s-bob\""))) {
                assertEquals(List.of(bobId), accounts.backchannelLogout(token));
                assertEquals(List.of(), accounts.backchannelLogout(token));
            }
            String listed = accounts.listJson();
            assertFalse(listed.contains(bobId), listed);
            assertTrue(listed.contains(aliceId) && listed.contains(carolId), listed);
            assertThrows(NotSignedInException.class, () -> accounts.select(bobId));

            // An auth state: another user's token leaves it be; its own signs it out, the listener run once.
            AtomicInteger changes = new AtomicInteger();
            try (AuthState dave = signedIn(client, "dave", "s-dave")) {
                dave.setChangeListener(changes::incrementAndGet);
                try (LogoutToken erin = logout.validate(logoutToken("a-2", 0, "\"sub\":\"erin\""))) {
                    assertFalse(dave.backchannelLogout(erin));
                }
                assertEquals(0, changes.get());
                assertTrue(dave.isSignedIn());
                try (LogoutToken daves = logout.validate(logoutToken("a-3", 0, "\"sub\":\"dave\""))) {
                    assertTrue(dave.backchannelLogout(daves));
                    assertEquals(1, changes.get());
                    assertFalse(dave.isSignedIn());
                    assertFalse(dave.backchannelLogout(daves)); // signed out already: not named
                }
            }

            // The plain local sign-out: carol's state, bound to her account's record; nothing is sent anywhere
            // (no revocation endpoint is configured, and id.example.com is not reached).
            changes.set(0);
            carol.setChangeListener(changes::incrementAndGet);
            carol.signOut();
            assertFalse(carol.isSignedIn());
            assertEquals(1, changes.get());
            carol.signOut(); // signed out already: no error, no listener call
            assertEquals(1, changes.get());
            try (AuthState reopened = accounts.select(carolId)) {
                assertFalse(reopened.isSignedIn(), "the record says signed out");
            }
        }
    }

    @Test
    void outlivesItsClient() throws Exception {
        // The validator keeps the native client alive: closing the Java client first leaves it working.
        Client client = client();
        try (BackchannelLogout logout = new BackchannelLogout(client)) {
            client.close();
            try (LogoutToken token = logout.validate(logoutToken("c-1", 0, "\"sub\":\"alice\""))) {
                assertEquals("alice", token.subject());
            }
        }
    }
}
