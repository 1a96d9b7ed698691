package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Token exchange (RFC 8693) from Java against idpyoidc's OpenID provider (PyPI, written by someone else) in the
 * FAPI 2.0 harness, Tests/support/fapi_provider.py --token-exchange, started as a subprocess: the user signs in
 * (PAR, private_key_jwt, DPoP, PKCE; the browser's part played by {@code fapi_provider.py login}), then the
 * access token is exchanged for one for an audience and for a refresh token, and idpyoidc's refusals come
 * with their OAuth error.
 */
class TokenExchangeTest {
    private static final String AUDIENCE = "https://backend.example.com/"; // fapi_provider.py's TOKEN_EXCHANGE_AUDIENCES
    private static Process provider;
    private static Client client;
    private static String subject;

    @BeforeAll
    static void signIn() throws Exception {
        Process[] started = new Process[1];
        try {
            String line = PythonProcess.startServer("Tests/support/fapi_provider.py", started, "--token-exchange");
            provider = started[0];
            String issuer = field(line, "issuer");
            int jwk = line.indexOf("\"client_private_jwk\": ") + "\"client_private_jwk\": ".length();
            Config config = Config.builder()
                    .issuer(issuer)
                    .clientId(field(line, "client_id"))
                    .redirectUri(field(line, "redirect_uri"))
                    .set(Config.Key.SCOPE, "openid profile email offline_access")
                    .set(Config.Key.SECURITY_PROFILE, "fapi2")
                    .set(Config.Key.TOKEN_ENDPOINT_AUTH_METHOD, "private_key_jwt")
                    .set(Config.Key.CLIENT_PRIVATE_KEY, line.substring(jwk, line.indexOf('}', jwk) + 1))
                    .set(Config.Key.DPOP_SIGNING_ALG, "ES256")
                    .build();
            client = new Client(config);
            PendingAuthorization pending = client.buildAuthorization(
                    new AuthorizationRequest(config).set(AuthorizationRequest.Parameter.PROMPT, "consent"));
            AuthState state = client.exchangeCode(pending.handleCallback(login(issuer, pending.url())));
            subject = state.freshAccessToken();
        } catch (IOException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    @AfterAll
    static void stop() {
        PythonProcess.stopAll(provider);
    }

    /** The user's login at the harness, played by its {@code login} command: the callback URL. */
    private static String login(String issuer, String url) throws IOException, InterruptedException {
        Process login = PythonProcess.builder("Tests/support/fapi_provider.py", "login", issuer, url)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String callback = new BufferedReader(new InputStreamReader(login.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        assertEquals(0, login.waitFor());
        return callback;
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\": \"([^\"]*)\"").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }

    @Test
    void anAccessTokenForAnAudience() {
        try (TokenExchange exchange = new TokenExchange(subject, TokenType.ACCESS_TOKEN).addAudience(AUDIENCE)
                .scope("openid profile");
             IssuedToken issued = exchange.exchange(client)) {
            assertEquals(TokenType.ACCESS_TOKEN, issued.issuedTokenType());
            assertEquals("DPoP", issued.tokenType());
            assertTrue(!issued.token().isEmpty());
            assertNotEquals(subject, issued.token());
            assertNull(issued.refreshToken());
            assertTrue(issued.scope().contains("profile") && !issued.scope().contains("email"));
            assertEquals(0, issued.expiresAt()); // idpyoidc sends no expires_in for its JWT access tokens
            // No refresh token came with it: it can't become an auth state.
            assertThrows(InvalidArgumentException.class, issued::authState);
        }
    }

    @Test
    void aRefreshToken() {
        try (TokenExchange exchange = new TokenExchange(subject, TokenType.ACCESS_TOKEN)
                .requestedTokenType(TokenType.REFRESH_TOKEN);
             IssuedToken issued = exchange.exchange(client)) {
            assertEquals(TokenType.REFRESH_TOKEN, issued.issuedTokenType());
            assertThrows(InvalidArgumentException.class, issued::authState);
        }
    }

    @Test
    void theProvidersRefusals() {
        try (TokenExchange unknownResource = new TokenExchange(subject, TokenType.ACCESS_TOKEN)
                .addResource("https://elsewhere.example/");
             TokenExchange withActor = new TokenExchange(subject, TokenType.ACCESS_TOKEN)
                .actor(subject, TokenType.ACCESS_TOKEN)) {
            AuthorizationErrorException target = assertThrows(AuthorizationErrorException.class,
                    () -> unknownResource.exchange(client));
            assertEquals("invalid_target", target.oauthError());
            assertEquals(400, target.httpStatus());
            AuthorizationErrorException actor = assertThrows(AuthorizationErrorException.class,
                    () -> withActor.exchange(client));
            assertEquals("invalid_request", actor.oauthError()); // idpyoidc supports no actor tokens
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnyRequest() {
        assertThrows(InvalidArgumentException.class, () -> new TokenExchange("", TokenType.ACCESS_TOKEN));
        assertThrows(InvalidArgumentException.class, () -> new TokenExchange("t", "access_token"));
        assertThrows(NullPointerException.class, () -> new TokenExchange(null, TokenType.ACCESS_TOKEN));
        try (TokenExchange exchange = new TokenExchange("t", TokenType.ACCESS_TOKEN)) {
            assertThrows(InvalidArgumentException.class, () -> exchange.actor("actor", null));
            assertThrows(InvalidArgumentException.class, () -> exchange.addResource("https://api.example/#f"));
            assertThrows(InvalidArgumentException.class, () -> exchange.scope(""));
            assertThrows(InvalidArgumentException.class, () -> exchange.requestedTokenType("jwt"));
            exchange.addAudience("backend");
            assertThrows(InvalidArgumentException.class, () -> exchange.addAudience("backend"));
        }
    }
}
