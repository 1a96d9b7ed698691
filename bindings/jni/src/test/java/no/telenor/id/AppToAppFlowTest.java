package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Vipps/MobilePay app-to-app sequence (Vipps Login app-to-app) through the JNI bridge against the real provider, split
 * as Vipps' documentation draws it (and as Tests/python/test_app_to_app.py does): the merchant backend, a confidential
 * client with the secret, builds the request and keeps the pending request; the merchant app restores
 * it from its serialized form without the secret, opens the URL, is called back by the provider's app
 * (played here with Vipps' documented callbacks), and hands the final redirect to the backend, which checks it,
 * exchanges the code and validates the ID token. The provider has no Vipps app: it ignores
 * requested_flow and app_callback_uri, so its part ends at the normal redirect.
 */
class AppToAppFlowTest {
    private static final String REDIRECT = "merchantapp://redirect-uri"; // registered exactly so
    private static final String APP_CALLBACK = "merchantapp://app-callback";
    private static Provider provider;

    @BeforeAll
    static void start() throws Exception {
        provider = new Provider();
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    private static Config.Builder backendSettings(String redirect) {
        return Config.builder().issuer(provider.issuer).clientId(provider.backendClientId)
                .clientSecret(provider.backendSecret).redirectUri(redirect).scope("openid profile email");
    }

    /** What the app knows: the client id and the redirect URI, never the secret. */
    private static Config appConfig() {
        return Config.builder().issuer(provider.issuer).clientId(provider.backendClientId).redirectUri(REDIRECT)
                .scope("openid profile email").authorizationEndpoint(provider.authorizationEndpoint()).build();
    }

    @Test
    void theWholeSequence() throws Exception {
        try (Config settings = backendSettings(REDIRECT).build(); Client backend = new Client(settings);
             AuthorizationRequest request = new AuthorizationRequest(backend.config()).appToApp(APP_CALLBACK);
             PendingAuthorization pending = request.build()) {
            // 1: the backend hands the app the serialized pending request; the secret is not in it.
            String shipped = pending.serialize();
            assertFalse(shipped.contains(provider.backendSecret));
            try (Config app = appConfig(); PendingAuthorization appPending = PendingAuthorization.restore(app, shipped)) {
                Map<String, String> query = TestSupport.query(appPending.url());
                assertEquals("app_to_app", query.get("requested_flow"));
                assertEquals(APP_CALLBACK, query.get("app_callback_uri"));

                // 2-3: the app opens the URL; the user signs in (the provider's pages stand in for the Vipps app).
                String redirect = provider.login(appPending.url(), false);

                // 4-5: the provider's app opens app_callback_uri with state and resume_uri (on the provider's host).
                String state = appPending.state();
                String resume = "https://127.0.0.1/vipps-login-idp/index.html?tabId=7607f7f0-7ae2-49b7-9cb5-102143dac4ea";
                for (String url : new String[] {
                        APP_CALLBACK + "?state=" + state + "&resume_uri=" + TestSupport.encode(resume),
                        APP_CALLBACK + "/?state=" + state + "&resume_uri=" + TestSupport.encode(resume)}) {
                    try (AppCallback callback = appPending.handleAppCallback(url)) {
                        assertEquals(resume, callback.resumeUri());
                    }
                }
                try (AppCallback callback = appPending.handleAppCallback(APP_CALLBACK + "?state=" + state)) {
                    assertNull(callback.resumeUri());
                }

                // 6-8: the redirect reaches the backend, which checks it and exchanges the code with its secret.
                assertTrue(redirect.startsWith(REDIRECT + "?"), redirect);
                try (AuthorizationCallback callback = pending.handleCallback(redirect);
                     AuthState tokens = backend.exchangeCode(callback)) {
                    String claims = tokens.idTokenClaims();
                    assertTrue(claims.contains("\"aud\":\"" + provider.backendClientId + "\""), claims);
                    assertTrue(claims.contains("\"nonce\":\"" + pending.nonce() + "\""), claims);
                    assertTrue(tokens.userinfo().contains("\"sub\":"));
                    // Later, the backend can check an ID token it is handed again.
                    String idToken = tokens.get(AuthState.Field.ID_TOKEN);
                    String verified = backend.verifyIdToken(idToken, pending.nonce());
                    assertTrue(verified.contains("\"claims\":") && verified.contains(pending.nonce()), verified);
                    assertThrows(TokenInvalidException.class, () -> backend.verifyIdToken(idToken, "another-nonce"));
                    String[] parts = idToken.split("\\.");
                    String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8)
                            .replaceFirst("\\{", "{\"forged\":true,");
                    String forged = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                            .encodeToString(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "." + parts[2];
                    assertThrows(TokenInvalidException.class, () -> backend.verifyIdToken(forged, null));
                }
            }
        }
    }

    @Test
    void errorCallbacksFromTheProvidersApp() throws Exception {
        try (Config settings = backendSettings(REDIRECT).build(); Client backend = new Client(settings);
             AuthorizationRequest request = new AuthorizationRequest(backend.config()).appToApp(APP_CALLBACK);
             PendingAuthorization pending = request.build()) {
            String state = pending.state();
            // Vipps' documented error examples read "state=...?error=unknown_error"; the well-formed "&error=" too.
            for (String url : new String[] {APP_CALLBACK + "?state=" + state + "?error=unknown_error",
                    APP_CALLBACK + "?state=" + state + "&error=unknown_error"}) {
                AuthorizationErrorException error = assertThrows(AuthorizationErrorException.class,
                        () -> pending.handleAppCallback(url));
                assertEquals("unknown_error", error.oauthError());
            }
            assertThrows(StateMismatchException.class, () -> pending.handleAppCallback(
                    APP_CALLBACK + "?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https%3A%2F%2F127.0.0.1%2F"));
            assertThrows(RedirectMismatchException.class, () -> pending.handleAppCallback("otherapp://app-callback?state=" + state));
            for (String resume : new String[] {"http://127.0.0.1/vipps-login-idp/", "https://evil.example/vipps-login-idp/",
                    "https://user@127.0.0.1/x"}) {
                assertThrows(InsecureException.class, () -> pending.handleAppCallback(
                        APP_CALLBACK + "?state=" + state + "&resume_uri=" + TestSupport.encode(resume)));
            }
            // A refused app callback consumes nothing: the redirect still completes the login.
            try (AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false));
                 AuthState tokens = backend.exchangeCode(callback)) {
                assertTrue(tokens.isSignedIn());
            }
        }
    }

    @Test
    void redirectUriIsUsedExactlyAsConfigured() throws Exception {
        try (Config settings = backendSettings(REDIRECT).build(); Client backend = new Client(settings);
             AuthorizationRequest request = new AuthorizationRequest(backend.config()).appToApp(APP_CALLBACK);
             PendingAuthorization pending = request.build()) {
            String redirect = provider.login(pending.url(), false);
            // A redirect that arrives with a "/" added is not this request's ...
            assertThrows(RedirectMismatchException.class, () -> pending.handleCallback(redirect.replace(REDIRECT, REDIRECT + "/")));
            // ... and a pending request restored under a redirect URI with a trailing "/" is refused.
            try (Config slash = backendSettings(REDIRECT + "/").authorizationEndpoint(provider.authorizationEndpoint()).build()) {
                assertThrows(ConfigurationException.class, () -> PendingAuthorization.restore(slash, pending.serialize()));
            }
        }
    }
}
