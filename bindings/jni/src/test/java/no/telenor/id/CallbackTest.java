package no.telenor.id;

import static no.telenor.id.TestSupport.REDIRECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CallbackTest {
    private Config config;
    private PendingAuthorization pending;

    @BeforeEach
    void setUp() {
        config = TestSupport.config();
        try (AuthorizationRequest request = new AuthorizationRequest(config)) {
            pending = request.build();
        }
    }

    @AfterEach
    void tearDown() {
        pending.close();
        config.close();
    }

    @Test
    void success() {
        try (AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=SplxlOBeZQQYbYS6WxSbIA&state="
                + pending.state() + "&scope=openid%20profile&session_state=xyz")) {
            assertSame(pending, callback.pending());
            assertEquals("SplxlOBeZQQYbYS6WxSbIA", callback.code());
            assertEquals("openid profile", callback.parameter("scope"));
            assertEquals("xyz", callback.parameter("session_state"));
            assertNull(callback.parameter("absent"));
            assertEquals(Map.of("scope", "openid profile", "session_state", "xyz"),
                    callback.parameters("scope", "session_state", "absent"));
        }
        ConsumedException again = assertThrows(ConsumedException.class,
                () -> pending.handleCallback(REDIRECT + "?code=again&state=" + pending.state()));
        assertEquals(Status.CONSUMED, again.status());
    }

    @Test
    void stateMismatch() {
        StateMismatchException e = assertThrows(StateMismatchException.class,
                () -> pending.handleCallback(REDIRECT + "?code=c&state=forged"));
        assertInstanceOf(CallbackMismatchException.class, e);
        assertEquals(8, e.statusCode());
        assertEquals(Status.STATE_MISMATCH, e.status());
        assertEquals("state mismatch", e.statusName());
        assertTrue(!e.message().isEmpty());
        assertNull(e.oauthError());
        assertNull(e.oauthErrorDescription());
        assertNull(e.oauthErrorUri());
        assertEquals(0, e.httpStatus());
        // A forged callback does not consume the pending request.
        try (AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=c&state=" + pending.state())) {
            assertEquals("c", callback.code());
        }
    }

    @Test
    void errorCarriesTheOAuthFields() {
        AuthorizationErrorException e = assertThrows(AuthorizationErrorException.class,
                () -> pending.handleCallback(REDIRECT + "?error=access_denied&error_description=No%20thanks%2C+Bob"
                        + "&error_uri=https%3A%2F%2Fdocs.example%2Fe&state=" + pending.state()));
        assertInstanceOf(TelenoridException.class, e);
        assertEquals(11, e.statusCode());
        assertEquals(Status.AUTHORIZATION_ERROR, e.status());
        assertEquals("authorization error", e.statusName());
        assertEquals("access_denied", e.oauthError());
        assertEquals("No thanks, Bob", e.oauthErrorDescription());
        assertEquals("https://docs.example/e", e.oauthErrorUri());
        assertEquals(0, e.httpStatus());
        assertTrue(e.getMessage().contains("access_denied"), e.getMessage());
        assertTrue(e.getMessage().contains("No thanks, Bob"), e.getMessage());
    }

    @Test
    void errorDescriptionWithNonAsciiCharacters() {
        String description = "Åse 😀 avbrøt";
        AuthorizationErrorException e = assertThrows(AuthorizationErrorException.class,
                () -> pending.handleCallback(REDIRECT + "?error=access_denied&error_description="
                        + TestSupport.encode(description) + "&state=" + pending.state()));
        assertEquals(description, e.oauthErrorDescription());
    }

    @Test
    void otherChecks() {
        assertThrows(RedirectMismatchException.class,
                () -> pending.handleCallback("telenorid-example://elsewhere/?code=c&state=" + pending.state()));
        assertThrows(IssuerMismatchException.class, () -> pending.handleCallback(
                REDIRECT + "?code=c&state=" + pending.state() + "&iss=https%3A%2F%2Fevil.example"));
        assertThrows(MalformedException.class,
                () -> pending.handleCallback(REDIRECT + "?code=a&code=b&state=" + pending.state()));
        assertThrows(TelenoridException.class, () -> pending.handleCallback("not a url at all"));
        // None of these consumed it.
        try (AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=ok&state=" + pending.state()
                + "&iss=" + TestSupport.encode(TestSupport.ISSUER))) {
            assertEquals("ok", callback.code());
        }
    }
}
