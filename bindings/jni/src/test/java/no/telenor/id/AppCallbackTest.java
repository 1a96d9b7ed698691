package no.telenor.id;

import static no.telenor.id.TestSupport.APP_CALLBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AppCallbackTest {
    @Test
    void vippsAppCallbackIncludingTheMalformedErrorForm() {
        try (Config config = TestSupport.config();
                AuthorizationRequest request = new AuthorizationRequest(config).appToApp(APP_CALLBACK);
                PendingAuthorization pending = request.build()) {
            String state = pending.state();

            // As the provider's own example sends it: resume_uri with an unencoded query of its own.
            try (AppCallback ok = pending.handleAppCallback(APP_CALLBACK + "?state=" + state
                    + "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t")) {
                assertSame(pending, ok.pending());
                assertEquals("https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t", ok.resumeUri());
            }
            try (AppCallback none = pending.handleAppCallback(APP_CALLBACK + "?state=" + state)) {
                assertNull(none.resumeUri());
            }
            // A resume_uri on another host is refused ...
            assertThrows(TelenoridException.class, () -> pending.handleAppCallback(
                    APP_CALLBACK + "?state=" + state + "&resume_uri=https://evil.example/x"));
            // ... unless that host is the one allowed.
            try (AppCallback allowed = pending.handleAppCallback(
                    APP_CALLBACK + "?state=" + state + "&resume_uri=https://login.example/x", "login.example")) {
                assertEquals("https://login.example/x", allowed.resumeUri());
            }
            assertThrows(StateMismatchException.class, () -> pending.handleAppCallback(APP_CALLBACK + "?state=forged"));

            // The error form of the provider's examples: `state=...?error=...`.
            AuthorizationErrorException e = assertThrows(AuthorizationErrorException.class,
                    () -> pending.handleAppCallback(APP_CALLBACK + "?state=" + state + "?error=unknown_error"));
            assertEquals("unknown_error", e.oauthError());
            assertEquals(Status.AUTHORIZATION_ERROR, e.status());

            // The app callback does not consume the pending request: the code still arrives.
            try (AuthorizationCallback callback = pending.handleCallback(TestSupport.REDIRECT + "?code=c&state=" + state)) {
                assertEquals("c", callback.code());
            }
        }
    }
}
