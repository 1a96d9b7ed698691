package no.telenor.id;

import static no.telenor.id.TestSupport.CLIENT_ID;
import static no.telenor.id.TestSupport.RANDOM_43;
import static no.telenor.id.TestSupport.REDIRECT;
import static no.telenor.id.TestSupport.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import no.telenor.id.AuthorizationRequest.ClaimTarget;
import no.telenor.id.AuthorizationRequest.Parameter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AuthorizationRequestTest {
    /** The claims request of the OIDC claims request for native apps (OIDC Core §5.5) ("Request for native apps"): top-level purpose, per-claim purpose/essential. */
    static final String SEED_001_CLAIMS = "{\"purpose\":\"This is why RP is asking for your information\","
            + "\"id_token\":{"
            + "\"given_name\":{\"essential\":true,\"purpose\":\"This is why RP needs your name\"},"
            + "\"phone_number\":{\"essential\":true,\"purpose\":\"This is why RP needs your phone number\"},"
            + "\"birthdate\":{\"essential\":true,\"purpose\":\"This is why RP needs your DOB\"}},"
            + "\"userinfo\":{\"birthdate\":{\"essential\":true}}}";

    static final String LOGIN_HINT = "Åse 😀 +47&x=y";

    private Config config;

    @BeforeEach
    void setUp() {
        config = TestSupport.config();
    }

    @AfterEach
    void tearDown() {
        config.close();
    }

    @Test
    void fullAuthorizationUrlWithTheClaimsOfSeed001() {
        String url, state, nonce, verifier;
        try (AuthorizationRequest request = new AuthorizationRequest(config)
                .prompt("login")
                .maxAge(600)
                .claimsPurpose("This is why RP is asking for your information")
                .addClaim(ClaimTarget.ID_TOKEN, "given_name", true, "This is why RP needs your name")
                .addClaim(ClaimTarget.ID_TOKEN, "phone_number", true, "This is why RP needs your phone number")
                .addClaim(ClaimTarget.ID_TOKEN, "birthdate", true, "This is why RP needs your DOB")
                .addClaim(ClaimTarget.USERINFO, "birthdate", true, null)
                .loginHint(LOGIN_HINT)
                .uiLocales("nb en")
                .alohaToken("aloha-1")
                .addParameter("resource", "https://api.example.com/?a=b");
                PendingAuthorization pending = request.build()) {
            assertSame(config, request.config());
            assertSame(config, pending.config());
            url = pending.url();
            state = pending.state();
            nonce = pending.nonce();
            verifier = pending.codeVerifier();
        }

        URI uri = URI.create(url);
        assertEquals("https", uri.getScheme());
        assertEquals("api.vipps.no", uri.getRawAuthority());
        assertEquals("/oauth2/auth", uri.getRawPath());
        assertEquals(null, uri.getRawFragment());
        Map<String, String> params = query(url);
        assertEquals("code", params.remove("response_type"));
        assertEquals(CLIENT_ID, params.remove("client_id"));
        assertEquals(REDIRECT, params.remove("redirect_uri"));
        assertEquals("openid profile", params.remove("scope"));
        assertEquals(state, params.remove("state"));
        assertTrue(RANDOM_43.matcher(state).matches(), state);
        assertEquals(nonce, params.remove("nonce"));
        assertTrue(RANDOM_43.matcher(nonce).matches(), nonce);
        assertNotEquals(state, nonce);
        try (Pkce pkce = Pkce.fromVerifier(verifier)) {
            assertEquals(pkce.challenge(), params.remove("code_challenge"));
        }
        assertEquals("S256", params.remove("code_challenge_method"));
        assertEquals("login", params.remove("prompt"));
        assertEquals("600", params.remove("max_age"));
        // Non-ASCII (a BMP letter and a supplementary emoji) and reserved characters round-trip exactly.
        assertEquals(LOGIN_HINT, params.remove("login_hint"));
        assertEquals("nb en", params.remove("ui_locales"));
        assertEquals("aloha-1", params.remove("aloha_token"));
        assertEquals("https://api.example.com/?a=b", params.remove("resource"));
        assertEquals(SEED_001_CLAIMS, params.remove("claims"));
        assertEquals(Map.of(), params, "unexpected parameters");
    }

    @Test
    void eachBuildDrawsFreshSecrets() {
        try (AuthorizationRequest request = config.newAuthorizationRequest();
                PendingAuthorization first = request.build(); PendingAuthorization second = request.build()) {
            assertNotEquals(first.state(), second.state());
            assertNotEquals(first.nonce(), second.nonce());
            assertNotEquals(first.codeVerifier(), second.codeVerifier());
            assertNotEquals(query(first.url()).get("code_challenge"), query(second.url()).get("code_challenge"));
        }
    }

    @Test
    void claimValuesAreSentAsJson() {
        try (AuthorizationRequest request = new AuthorizationRequest(config)
                .addClaim(ClaimTarget.ID_TOKEN, "acr", false, null, null, "[\"urn:a\",\"urn:b\"]")
                .addClaim(ClaimTarget.USERINFO, "nationality", null, null, "\"NO\"", null)
                .addClaim(ClaimTarget.USERINFO, "email");
                PendingAuthorization pending = request.build()) {
            assertEquals("{\"id_token\":{\"acr\":{\"essential\":false,\"values\":[\"urn:a\",\"urn:b\"]}},"
                    + "\"userinfo\":{\"nationality\":{\"value\":\"NO\"},\"email\":null}}", query(pending.url()).get("claims"));
        }
        try (AuthorizationRequest request = new AuthorizationRequest(config)) {
            // The header does not say which status JSON that does not parse gets here; the library says
            // INVALID_ARGUMENT (a bad argument), the status list suggests MALFORMED. Either is a refusal.
            for (String bad : new String[] {"{not an array", "{\"an\": \"object\"}", "\"a string\""}) {
                TelenoridException e = assertThrows(TelenoridException.class,
                        () -> request.addClaim(ClaimTarget.ID_TOKEN, "acr", null, null, null, bad), bad);
                assertTrue(e instanceof InvalidArgumentException || e instanceof MalformedException, bad + ": " + e);
            }
            TelenoridException e = assertThrows(TelenoridException.class,
                    () -> request.addClaim(ClaimTarget.ID_TOKEN, "acr", null, null, "{oops", null));
            assertTrue(e instanceof InvalidArgumentException || e instanceof MalformedException, e.toString());
            try (PendingAuthorization pending = request.build()) {
                assertEquals(null, query(pending.url()).get("claims"), "a refused claim is not added");
            }
        }
    }

    @Test
    void extraParametersFromAMap() {
        Map<String, String> extras = new LinkedHashMap<>();
        extras.put("resource", "https://api.example.com/");
        extras.put("audience", "Åse 😀");
        try (AuthorizationRequest request = new AuthorizationRequest(config).addParameters(extras);
                PendingAuthorization pending = request.build()) {
            Map<String, String> params = query(pending.url());
            assertEquals("https://api.example.com/", params.get("resource"));
            assertEquals("Åse 😀", params.get("audience"));
        }
    }

    @Test
    void theLibraryOwnsItsParameters() {
        try (AuthorizationRequest request = new AuthorizationRequest(config)) {
            for (String owned : new String[] {"state", "client_id", "nonce", "code_challenge", "claims", "prompt"}) {
                ParameterConflictException e = assertThrows(ParameterConflictException.class,
                        () -> request.addParameter(owned, "mine"), owned);
                assertEquals(Status.PARAMETER_CONFLICT, e.status());
            }
            request.addParameter("resource", "a");
            assertThrows(ParameterConflictException.class, () -> request.addParameter("resource", "b"));
            request.addClaim(ClaimTarget.ID_TOKEN, "name");
            assertThrows(ParameterConflictException.class, () -> request.addClaim(ClaimTarget.ID_TOKEN, "name"));
            assertThrows(UnsupportedException.class, () -> request.pkceMethod(Pkce.Method.PLAIN));
            assertThrows(InvalidArgumentException.class, () -> request.set(Parameter.MAX_AGE, "ten"));
            assertThrows(InvalidArgumentException.class, () -> request.maxAge(-1));
            // form_post is a real response mode the library does not implement.
            TelenoridException mode = assertThrows(TelenoridException.class, () -> request.responseMode("form_post"));
            assertTrue(mode instanceof UnsupportedException || mode instanceof InvalidArgumentException, mode.toString());
            request.responseMode("fragment").set(Parameter.RESPONSE_MODE, null);
            assertThrows(NullPointerException.class, () -> request.addParameter("x", null));
        }
    }

    @Test
    void plainPkceOnlyWhenTheConfigurationAllowsIt() {
        try (Config allowing = TestSupport.baseConfig().allowPlainPkce(true).build();
                AuthorizationRequest request = new AuthorizationRequest(allowing).pkceMethod(Pkce.Method.PLAIN);
                PendingAuthorization pending = request.build()) {
            Map<String, String> params = query(pending.url());
            assertEquals("plain", params.get("code_challenge_method"));
            assertEquals(pending.codeVerifier(), params.get("code_challenge"));
        }
    }

    @Test
    void noAuthorizationEndpointIsAConfigurationError() {
        try (Config bare = Config.builder().issuer(TestSupport.ISSUER).clientId(CLIENT_ID).redirectUri(REDIRECT).build();
                AuthorizationRequest request = new AuthorizationRequest(bare)) {
            ConfigurationException e = assertThrows(ConfigurationException.class, request::build);
            assertNotNull(e.getMessage());
        }
    }

    @Test
    void appToAppSendsBothParameters() {
        try (AuthorizationRequest request = new AuthorizationRequest(config).appToApp(TestSupport.APP_CALLBACK);
                PendingAuthorization pending = request.build()) {
            Map<String, String> params = query(pending.url());
            assertEquals("app_to_app", params.get("requested_flow"));
            assertEquals(TestSupport.APP_CALLBACK, params.get("app_callback_uri"));
        }
    }
}
