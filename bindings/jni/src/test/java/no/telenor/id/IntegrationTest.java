package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole sign-in through the JNI bridge against the real provider, as Tests/python/test_integration.py
 * does through ctypes: discovery → PKCE → authorize → login → callback → code exchange → ID token
 * validation → userinfo → refresh (rotation, change listener) → serialize/restore → revoke → refresh
 * refused; and the client and auth state misused.
 */
class IntegrationTest {
    private static Provider provider;

    @BeforeAll
    static void start() throws Exception {
        provider = new Provider();
    }

    @AfterAll
    static void stop() throws Exception {
        provider.close();
    }

    private static AuthState signIn(Client client) throws Exception {
        try (AuthorizationRequest request = new AuthorizationRequest(client.config());
             PendingAuthorization pending = request.build();
             AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false))) {
            return client.exchangeCode(callback);
        }
    }

    @Test
    void clientBuildsWithDiscoveredEndpointsAndRefusesAPushWithoutEndpoint() throws Exception {
        // django-oauth-toolkit has no RFC 9126 endpoint: the request goes out whole, unless a push is asked for.
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthorizationRequest request = new AuthorizationRequest(settings)) {
            PendingAuthorization pending = client.buildAuthorization(request);
            assertTrue(pending.url().startsWith(provider.issuer + "/authorize/?"), pending.url());
            assertEquals(pending.state(), TestSupport.query(pending.url()).get("state"));
            AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false));
            assertTrue(client.exchangeCode(callback).isSignedIn());
        }
        try (Config settings = provider.config().pushAuthorizationRequests(true).build(); Client client = new Client(settings);
             AuthorizationRequest request = new AuthorizationRequest(settings)) {
            ProviderUnsupportedException refused = assertThrows(ProviderUnsupportedException.class, () -> client.buildAuthorization(request));
            assertTrue(refused.getMessage().contains("RFC 9126"), refused.getMessage());
        }
    }

    @Test
    void fullLoginRefreshRestoreRevoke() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings)) {
            client.discover();
            Config config = client.config();
            assertEquals(provider.issuer + "/authorize/", config.get(Config.Key.AUTHORIZATION_ENDPOINT));
            AuthorizationRequest request = new AuthorizationRequest(config).maxAge(600);
            PendingAuthorization pending = request.build();
            assertTrue(TestSupport.query(pending.url()).get("code_challenge_method").equals("S256"));
            String redirect = provider.login(pending.url(), false);
            assertTrue(redirect.startsWith(Provider.REDIRECT + "?"), redirect);
            AuthorizationCallback callback = pending.handleCallback(redirect);
            AuthState state = client.exchangeCode(callback);
            assertTrue(state.isSignedIn());

            String claims = state.idTokenClaims();
            assertTrue(claims.contains("\"iss\":\"" + provider.issuer + "\""), claims);
            assertTrue(claims.contains("\"aud\":\"native-app\""), claims);
            assertTrue(claims.contains("\"nonce\":\"" + pending.nonce() + "\""), claims);
            assertTrue(state.expiresAt() > System.currentTimeMillis() / 1000, "expires in the future");
            assertEquals("Bearer", state.get(AuthState.Field.TOKEN_TYPE));
            String userinfo = state.userinfo();
            assertTrue(userinfo.contains("\"given_name\":\"Alice\"") && userinfo.contains("\"email\":\"alice@example.com\""),
                    userinfo);

            // Refresh on another thread: the listener runs there and may read the state.
            String access = state.freshAccessToken();
            String firstRefresh = state.get(AuthState.Field.REFRESH_TOKEN);
            List<String> saved = new CopyOnWriteArrayList<>();
            List<Thread> threads = new CopyOnWriteArrayList<>();
            state.setChangeListener(() -> {
                threads.add(Thread.currentThread());
                saved.add(state.serialize());
            });
            Thread refresher = new Thread(state::refresh, "refresher");
            refresher.start();
            refresher.join();
            assertEquals(1, saved.size(), "one change, one call");
            assertEquals(refresher, threads.get(0));
            assertNotEquals(firstRefresh, state.get(AuthState.Field.REFRESH_TOKEN), "the provider rotates");
            assertNotEquals(access, state.freshAccessToken());
            assertTrue(saved.get(0).contains(state.get(AuthState.Field.REFRESH_TOKEN)), "the listener saw the new state");

            // Restore what the listener saved: the copy refreshes by itself; the original's token is then spent.
            try (AuthState restored = client.restore(saved.get(0))) {
                restored.refresh();
                AuthorizationLostException lost = assertThrows(AuthorizationLostException.class, state::refresh);
                assertEquals("invalid_grant", lost.oauthError());
                assertEquals(400, lost.httpStatus());
                assertFalse(state.isSignedIn());
                assertEquals(2, saved.size(), "the sign-out was a change too");

                restored.revoke();
                assertFalse(restored.isSignedIn());
                assertNull(restored.get(AuthState.Field.ACCESS_TOKEN));
                assertEquals(0, restored.expiresAt());
                assertThrows(NotSignedInException.class, restored::refresh);
                assertThrows(NotSignedInException.class, restored::freshAccessToken);
            }
            // The provider refuses the revoked token too.
            try (AuthState stale = client.restore(saved.get(0))) {
                assertThrows(AuthorizationLostException.class, stale::refresh);
            }
            state.close();
            assertThrows(IllegalStateException.class, state::serialize);
            state.close(); // idempotent
            callback.close();
            pending.close();
            request.close();
            config.close();
        }
    }

    @Test
    void codeIsExchangedOnceAndDeniedConsentIsTyped() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             Config config = client.config()) {
            PendingAuthorization pending = new AuthorizationRequest(config).build();
            AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false));
            client.exchangeCode(callback).close();
            assertThrows(ConsumedException.class, () -> client.exchangeCode(callback));

            PendingAuthorization denied = new AuthorizationRequest(config).build();
            AuthorizationErrorException error = assertThrows(AuthorizationErrorException.class,
                    () -> denied.handleCallback(provider.login(denied.url(), true)));
            assertEquals("access_denied", error.oauthError());
        }
    }

    @Test
    void endSessionUrl() throws Exception {
        try (Config settings = provider.config().endSessionEndpoint(provider.issuer + "/logout/").build();
             Client client = new Client(settings); AuthState state = signIn(client)) {
            String url = state.endSessionUrl("http://127.0.0.1:53682/logged-out", "bye");
            assertEquals(state.get(AuthState.Field.ID_TOKEN), TestSupport.query(url).get("id_token_hint"));
            assertEquals("bye", TestSupport.query(url).get("state"));
            assertTrue(state.isSignedIn(), "not signed out by building the URL");
        }
    }

    @Test
    void misuse() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings)) {
            assertThrows(MalformedException.class, () -> client.restore("{not json"));
            assertThrows(NullPointerException.class, () -> client.restore(null));
            assertThrows(IllegalArgumentException.class, () -> client.restore("{}\u0000"));
            try (AuthState state = signIn(client)) {
                // Neither setChangeListener nor close may be called from inside the listener.
                AtomicReference<Throwable> inside = new AtomicReference<>();
                state.setChangeListener(() -> {
                    try {
                        state.setChangeListener(null);
                    } catch (IllegalStateException expected) {
                        inside.set(expected);
                    }
                });
                state.refresh();
                assertTrue(inside.get() instanceof IllegalStateException);
                // A listener that throws: reported to the thread's handler; the refresh stands.
                AtomicReference<Throwable> reported = new AtomicReference<>();
                Thread thread = new Thread(state::refresh);
                thread.setUncaughtExceptionHandler((t, e) -> reported.set(e));
                state.setChangeListener(() -> {
                    throw new IllegalStateException("listener failed");
                });
                thread.start();
                thread.join();
                assertEquals("listener failed", reported.get().getMessage());
                assertTrue(state.isSignedIn());
                state.setChangeListener(null);
                state.refresh();
            }
        }
        Client closed = new Client(provider.config().build());
        closed.close();
        assertThrows(IllegalStateException.class, closed::discover);
    }

    @Test
    void transportAndIssuerErrorsAreTyped() throws Exception {
        // A port nothing listens on: no connection, which is worth retrying later.
        try (Config settings = Config.builder().issuer("http://127.0.0.1:9/o").clientId("x").redirectUri(Provider.REDIRECT)
                .connectTimeoutMillis(2000).build(); Client client = new Client(settings)) {
            NetworkException error = assertThrows(NetworkException.class, client::discover);
            assertTrue(error.isTransient());
            assertEquals(0, error.httpStatus());
        }
        try (Config settings = provider.config().issuer(provider.issuer + "/").build(); Client client = new Client(settings)) {
            assertThrows(IssuerMismatchException.class, client::discover);
        }
        // A 503 is TELENORID_E_TEMPORARILY_UNAVAILABLE now (telenorid.h), still an HttpStatusException; the
        // library's rule calls HTTP_STATUS itself (a status the call does not accept) permanent.
        HttpStatusException unavailable = (HttpStatusException) TelenoridException.create(
                Status.TEMPORARILY_UNAVAILABLE.code(), null, "HTTP 503", null, null, null, 503);
        assertTrue(unavailable.isTransient());
        TransportException notFound = (TransportException) TelenoridException.create(
                Status.HTTP_STATUS.code(), null, "HTTP 404", null, null, null, 404);
        assertFalse(notFound.isTransient());
    }
}
