package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Salesforce Mobile SDK identity provider's identity-provider app flow through the JNI bridge, both roles against the real provider (as
 * Tests/python/test_idp_app.py does through ctypes): the service-provider (SP) app builds a request for the
 * IdP app; the IdP app checks it against the caller's redirect URIs, asks the provider for a code on the
 * SP's behalf and hands back only the code; the SP checks the response and exchanges the code with its
 * own verifier. Once with URLs (custom schemes), once with bundles (intent extras); then hostile requests
 * and responses.
 */
class IdPAppFlowTest {
    private static final String SP_REDIRECT = "com.example.app:/oauth2redirect"; // registered for the public client
    private static final String IDP_APP_URI = "idpapp://authorize";
    private static final List<String> CALLERS = Collections.singletonList(SP_REDIRECT);
    private static Provider provider;

    @BeforeAll
    static void start() throws Exception {
        provider = new Provider();
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    private static Client spClient() {
        try (Config settings = Config.builder().issuer(provider.issuer).clientId(provider.clientId).redirectUri(SP_REDIRECT)
                .scope("openid profile email").build()) {
            return new Client(settings);
        }
    }

    /** The IdP app's half: the provider request for the SP, the user signing in, the answer for the SP. */
    private static IdPAppResponse idpAppGetsCode(IdPAppRequest request, boolean deny) throws Exception {
        String url = request.authorizationUrl(provider.authorizationEndpoint());
        Map<String, String> query = TestSupport.query(url);
        assertEquals(SP_REDIRECT, query.get("redirect_uri"));
        assertEquals("S256", query.get("code_challenge_method"));
        assertFalse(query.containsKey("code_verifier"));
        return request.respond(provider.login(url, deny), provider.loginHost());
    }

    private static void signsInThroughTheIdpApp(boolean bundles) throws Exception {
        try (Client client = spClient(); Config config = client.config();
             AuthorizationRequest authorization = new AuthorizationRequest(config);
             PendingAuthorization pending = authorization.build();
             IdPAppRequest spRequest = IdPAppRequest.forPending(pending, provider.loginHost(), "alice")) {
            IdPAppRequest idpRequest;
            if (bundles) {
                Map<String, String> bundle = spRequest.bundle();
                assertEquals("openid,profile,email", bundle.get("scopes"));
                assertEquals(pending.state(), bundle.get("state"));
                assertFalse(bundle.containsValue(pending.codeVerifier()), "the verifier stays with the SP");
                idpRequest = IdPAppRequest.parseBundle(bundle, CALLERS);
            } else {
                String url = spRequest.url(IDP_APP_URI);
                assertTrue(url.startsWith(IDP_APP_URI + "?"), url);
                idpRequest = IdPAppRequest.parseUrl(url, IDP_APP_URI, CALLERS);
            }
            assertEquals("alice", TestSupport.query(idpRequest.authorizationUrl(provider.authorizationEndpoint())).get("login_hint"));
            try (IdPAppRequest checked = idpRequest; IdPAppResponse response = idpAppGetsCode(checked, false)) {
                AuthorizationCallback callback;
                if (bundles) {
                    Map<String, String> answer = response.bundle();
                    assertEquals(new HashSet<>(Arrays.asList("code", "login_host", "state")), answer.keySet(),
                            "only the code crosses, never a token");
                    callback = pending.handleIdpResponse(answer);
                } else {
                    String answer = response.url();
                    assertTrue(answer.startsWith(SP_REDIRECT + "?"), answer);
                    callback = pending.handleIdpResponse(answer);
                    assertThrows(ConsumedException.class, () -> pending.handleIdpResponse(answer));
                }
                try (AuthorizationCallback code = callback; AuthState state = client.exchangeCode(code)) {
                    String claims = state.idTokenClaims();
                    assertTrue(claims.contains("\"iss\":\"" + provider.issuer + "\""), claims);
                    assertTrue(claims.contains("\"nonce\":\"" + pending.nonce() + "\""), claims);
                    assertTrue(state.userinfo().contains("\"sub\":"));
                }
            }
        }
    }

    @Test
    void spSignsInThroughTheIdpAppWithUrls() throws Exception {
        signsInThroughTheIdpApp(false);
    }

    @Test
    void spSignsInThroughTheIdpAppWithBundles() throws Exception {
        signsInThroughTheIdpApp(true);
    }

    private static Map<String, String> with(Map<String, String> bundle, String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(bundle);
        if (value == null) {
            changed.remove(name);
        } else {
            changed.put(name, value);
        }
        return changed;
    }

    @Test
    void hostileRequestsAreRefused() {
        try (Client client = spClient(); Config config = client.config();
             AuthorizationRequest authorization = new AuthorizationRequest(config);
             PendingAuthorization pending = authorization.build();
             IdPAppRequest spRequest = IdPAppRequest.forPending(pending, provider.loginHost(), null)) {
            Map<String, String> good = spRequest.bundle();
            assertThrows(MalformedException.class, () -> IdPAppRequest.parseBundle(with(good, "code_challenge", "too-short"), CALLERS));
            String challenge = good.get("code_challenge");
            assertThrows(MalformedException.class, () -> IdPAppRequest.parseBundle(
                    with(good, "code_challenge", challenge.substring(0, challenge.length() - 1) + "="), CALLERS));
            assertThrows(RedirectMismatchException.class, () -> IdPAppRequest.parseBundle(with(good, "oauth_redirect_uri", "evil.app:/steal"), CALLERS));
            assertThrows(RedirectMismatchException.class, () -> IdPAppRequest.parseBundle(with(good, "oauth_redirect_uri", SP_REDIRECT + "/"), CALLERS));
            assertThrows(MalformedException.class, () -> IdPAppRequest.parseBundle(with(good, "oauth_redirect_uri", "relative/path"), CALLERS));
            assertThrows(MalformedException.class, () -> IdPAppRequest.parseBundle(with(good, "state", null), CALLERS));
            String url = spRequest.url(IDP_APP_URI);
            assertThrows(MalformedException.class, () -> IdPAppRequest.parseUrl(url + "&state=second", IDP_APP_URI, CALLERS));
            assertThrows(RedirectMismatchException.class, () -> IdPAppRequest.parseUrl(url, IDP_APP_URI,
                    Collections.singletonList("other.app:/cb")));
            assertThrows(RedirectMismatchException.class, () -> IdPAppRequest.parseUrl(url, IDP_APP_URI, Collections.emptyList()));
            // Java-side misuse is refused before the library sees it.
            assertThrows(NullPointerException.class, () -> IdPAppRequest.parseBundle(with(good, "state", null), null));
            assertThrows(NullPointerException.class, () -> IdPAppRequest.parseUrl(url, IDP_APP_URI, Arrays.asList(SP_REDIRECT, null)));
            assertThrows(IllegalArgumentException.class, () -> IdPAppRequest.parseBundle(with(good, "state", "a\u0000b"), CALLERS));
        }
    }

    @Test
    void hostileResponsesAreRefusedAndLeaveTheRequestOpen() throws Exception {
        try (Client client = spClient(); Config config = client.config();
             AuthorizationRequest authorization = new AuthorizationRequest(config);
             PendingAuthorization pending = authorization.build();
             IdPAppRequest spRequest = IdPAppRequest.forPending(pending, null, null);
             IdPAppRequest idpRequest = IdPAppRequest.parseBundle(spRequest.bundle(), CALLERS);
             IdPAppResponse response = idpAppGetsCode(idpRequest, false)) {
            Map<String, String> bundle = response.bundle();
            assertThrows(IssuerMismatchException.class, () -> pending.handleIdpResponse(with(bundle, "login_host", "evil.example")));
            assertThrows(IssuerMismatchException.class, () -> pending.handleIdpResponse(bundle, "login.example"));
            assertThrows(StateMismatchException.class, () -> pending.handleIdpResponse(with(bundle, "state", "forged")));
            String elsewhere = response.url().replace(SP_REDIRECT, "evil.app:/cb");
            assertThrows(RedirectMismatchException.class, () -> pending.handleIdpResponse(elsewhere));
            // Still open: the genuine response goes through, the login host named explicitly this time; an
            // unknown extra is ignored (RFC 6749 §3.1) and dropped.
            try (AuthorizationCallback callback = pending.handleIdpResponse(with(bundle, "access_token", "smuggled"),
                                                                            "evil.example", provider.loginHost());
                 AuthState state = client.exchangeCode(callback)) {
                assertNull(callback.parameter("access_token"));
                assertTrue(state.isSignedIn());
            }
        }
    }

    @Test
    void providerRefusalReachesTheSpAsAnOAuthError() throws Exception {
        try (Client client = spClient(); Config config = client.config();
             AuthorizationRequest authorization = new AuthorizationRequest(config);
             PendingAuthorization pending = authorization.build();
             IdPAppRequest spRequest = IdPAppRequest.forPending(pending, null, null);
             IdPAppRequest idpRequest = IdPAppRequest.parseUrl(spRequest.url(IDP_APP_URI), IDP_APP_URI, CALLERS);
             IdPAppResponse response = idpAppGetsCode(idpRequest, true)) {
            AuthorizationErrorException refused = assertThrows(AuthorizationErrorException.class,
                    () -> pending.handleIdpResponse(response.url()));
            assertEquals("access_denied", refused.oauthError());
        }
    }

    private static final String SP_APP_URI = "com.example.app://idp-initiated";
    private static final String HINT = "00D000000000001:005000000000001";

    /**
     * IdP-initiated: the IdP app launches the SP for a user chosen among its signed-in users; the SP loops the
     * user_hint back in its own request; the IdP app recognises the hint and gets the code for that user.
     */
    @Test
    void idpInitiatedSignIn() throws Exception {
        Map<String, String> idpUsers = Collections.singletonMap(HINT, "the provider's test user");
        String sent = new IdPAppInitiation(HINT, provider.loginHost()).url(SP_APP_URI);
        assertTrue(sent.startsWith(SP_APP_URI + "?"), sent);
        IdPAppInitiation initiation = IdPAppInitiation.parseUrl(sent, SP_APP_URI);
        assertEquals(new IdPAppInitiation(HINT, provider.loginHost()), initiation);
        try (Client client = spClient(); Config config = client.config();
             AuthorizationRequest authorization = new AuthorizationRequest(config);
             PendingAuthorization pending = authorization.build();
             IdPAppRequest spRequest = IdPAppRequest.forPending(pending, initiation.loginHost(), initiation.userHint());
             IdPAppRequest idpRequest = IdPAppRequest.parseBundle(spRequest.bundle(), CALLERS)) {
            Map<String, String> loopedBack = idpRequest.bundle();
            assertTrue(idpUsers.containsKey(loopedBack.get("user_hint")), "the IdP app recognises the user");
            assertEquals(provider.loginHost(), loopedBack.get("login_host"));
            assertEquals(HINT, TestSupport.query(idpRequest.authorizationUrl(provider.authorizationEndpoint())).get("login_hint"));
            try (IdPAppResponse response = idpAppGetsCode(idpRequest, false);
                 AuthorizationCallback callback = pending.handleIdpResponse(response.bundle());
                 AuthState state = client.exchangeCode(callback)) {
                assertTrue(state.idTokenClaims().contains("\"nonce\":\"" + pending.nonce() + "\""));
            }
        }
    }

    @Test
    void hostileInitiationsAreRefused() {
        Map<String, String> good = new IdPAppInitiation("u", "login.example.com:8443").bundle();
        assertEquals(new HashSet<>(Arrays.asList("user_hint", "login_host")), good.keySet());
        assertEquals(new IdPAppInitiation("u", "login.example.com:8443"), IdPAppInitiation.parseBundle(with(good, "app_name", "x")));
        char[] longHint = new char[256];
        Arrays.fill(longHint, 'a');
        for (Map<String, String> bad : Arrays.asList(with(good, "user_hint", null), with(good, "login_host", null),
                with(good, "user_hint", ""), with(good, "user_hint", new String(longHint)), with(good, "user_hint", "a\nb"),
                with(good, "user_hint", "\u00e5"), with(good, "login_host", "evil.example/path"),
                with(good, "login_host", "me@evil.example"))) {
            assertThrows(MalformedException.class, () -> IdPAppInitiation.parseBundle(bad), bad.toString());
        }
        String url = new IdPAppInitiation("u", "h").url(SP_APP_URI);
        assertThrows(MalformedException.class, () -> IdPAppInitiation.parseUrl(url + "&user_hint=v", SP_APP_URI));
        assertThrows(RedirectMismatchException.class, () -> IdPAppInitiation.parseUrl(url, "other.app://idp-initiated"));
        assertThrows(InvalidArgumentException.class, () -> new IdPAppInitiation("a\tb", "h").bundle());
        assertThrows(InvalidArgumentException.class, () -> new IdPAppInitiation("u", "h/x").url(SP_APP_URI));
        assertThrows(NullPointerException.class, () -> new IdPAppInitiation(null, "h"));
    }
}
