package no.telenor.id;

import static no.telenor.id.MachineProviders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The other side of the token through the JNI bridge, as Tests/python/test_resource_server.py does through
 * ctypes: token introspection (RFC 7662), JWT access tokens (RFC 9068) and the client credentials grant
 * (RFC 6749 §4.4) at django-oauth-toolkit (Tests/support/provider/oidc_provider.py: opaque access tokens, its
 * machine-app client of the client credentials grant, an introspection endpoint at /o/introspect/) and glewlwyd
 * (Tests/support/glewlwyd_provider.py serve: access tokens are JWTs of typ at+jwt whose aud is the scope list;
 * the introspection endpoint is discovered and takes the machine client's client_secret_basic), and, in its own
 * test, LemonLDAP::NG 2.16 (Tests/support/lemonldap_provider.py serve: JWT access tokens of typ JWT, accepted
 * only by setting).
 */
class ResourceServerTest {
    @RegisterExtension
    static final MachineProviders providers = new MachineProviders();
    private static String djangoIssuer;
    private static String glewlwydIssuer;

    @BeforeAll
    static void issuers() {
        djangoIssuer = field(providers.django(), "issuer");
        glewlwydIssuer = field(providers.glewlwyd(), "issuer");
    }

    private static Config machine(String method) {
        return providers.djangoMachine().tokenEndpointAuthMethod(method).build();
    }

    /** A token of django-oauth-toolkit's machine client, from the client credentials grant. */
    private static String machineToken(String scope) {
        try (Config config = machine("client_secret_basic"); Client client = new Client(config);
             ClientCredentials credentials = new ClientCredentials(client, scope)) {
            return credentials.accessToken();
        }
    }

    /** The confidential client as the resource server's registration, with the introspection endpoint set. */
    private static Config.Builder backend() {
        return Config.builder().issuer(djangoIssuer).clientId(providers.djangoClient("confidential", "client_id"))
                .clientSecret(providers.djangoClient("confidential", "client_secret"))
                .introspectionEndpoint(djangoIssuer + "/introspect/");
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    @Test
    void clientCredentialsAtDjangoAreKeptAndRenewed() {
        try (Config config = machine("client_secret_basic"); Client client = new Client(config);
             ClientCredentials credentials = new ClientCredentials(client, null)) {
            assertEquals(0, credentials.expiresAt(), "nothing asked yet");
            String token = credentials.accessToken();
            assertFalse(token.isEmpty());
            assertEquals(token, credentials.accessToken(), "kept, not asked again");
            // The provider's expires_in of 300 s.
            assertTrue(Math.abs(credentials.expiresAt() - (now() + 300)) < 30, Long.toString(credentials.expiresAt()));
            credentials.rejected("some other token"); // a token it does not hold changes nothing
            assertEquals(token, credentials.accessToken());
            credentials.rejected(null);
            assertNotEquals(token, credentials.accessToken());
        }
        // client_secret_post and a scope
        try (Config config = machine("client_secret_post"); Client client = new Client(config);
             ClientCredentials credentials = new ClientCredentials(client, "profile")) {
            assertFalse(credentials.accessToken().isEmpty());
        }
    }

    @Test
    void introspectionAtDjangoOfActiveAndInactiveTokens() {
        String token = machineToken("profile");
        // The endpoint is only in django-oauth-toolkit's RFC 8414 metadata, from which discovery fills it.
        try (Config config = backend().introspectionEndpoint(null).build(); Client client = new Client(config);
             ResourceServer server = new ResourceServer(client, "api"); TokenInfo info = server.introspect(token)) {
            assertTrue(info.active());
        }
        for (String method : new String[] {"client_secret_basic", "client_secret_post"}) {
            try (Config config = backend().tokenEndpointAuthMethod(method).build(); Client client = new Client(config);
                 ResourceServer server = new ResourceServer(client, "api")) {
                try (TokenInfo info = server.introspect(token, "access_token")) {
                    assertTrue(info.active());
                    assertEquals("machine-app", info.clientId());
                    assertEquals("profile", info.scope());
                    assertTrue(Math.abs(info.expiresAt() - (now() + 300)) < 30, Long.toString(info.expiresAt()));
                    assertEquals("\"machine-app\"", info.member("client_id"));
                    assertEquals("true", info.member("active"));
                    assertTrue(info.json().replace(" ", "").contains("\"active\":true"), info.json());
                    assertNull(info.subject());
                    assertNull(info.audience());
                    assertNull(info.confirmationThumbprint());
                    assertNull(info.member("nope"));
                }
                try (TokenInfo inactive = server.introspect("not-a-token-it-issued")) {
                    assertFalse(inactive.active());
                    assertEquals("{\"active\":false}", inactive.json().replace(" ", ""));
                    assertNull(inactive.clientId());
                    assertEquals(0, inactive.expiresAt());
                }
                // An opaque token is no JWT: the local check says so.
                TokenInvalidException notJwt = assertThrows(TokenInvalidException.class, () -> server.verifyAccessToken(token));
                assertTrue(notJwt.getMessage().contains("not a JWT"), notJwt.getMessage());
            }
        }
        // A wrong secret: django-oauth-toolkit refuses the client with a bodyless 403 (RFC 7662 §2.3 asks for 401).
        try (Config config = backend().clientSecret("wrong").build(); Client client = new Client(config);
             ResourceServer server = new ResourceServer(client, "api")) {
            HttpStatusException refused = assertThrows(HttpStatusException.class, () -> server.introspect(token));
            assertTrue(refused.getMessage().contains("403"), refused.getMessage());
        }
    }

    @Test
    void introspectionCacheOutlivesARevocationOnlyByItsMaxAge() throws IOException {
        String token = machineToken(null);
        try (Config config = backend().build(); Client client = new Client(config);
             ResourceServer cached = new ResourceServer(client, "api"); ResourceServer uncached = new ResourceServer(client, "api")) {
            cached.setIntrospectionCacheMaxAge(60);
            try (TokenInfo a = cached.introspect(token); TokenInfo b = uncached.introspect(token)) {
                assertTrue(a.active() && b.active());
            }
            assertEquals(200, revoke(token));
            try (TokenInfo info = uncached.introspect(token)) {
                assertFalse(info.active(), "asks each time");
            }
            try (TokenInfo info = cached.introspect(token)) {
                assertTrue(info.active(), "the answer kept within its max age");
            }
            cached.setIntrospectionCacheMaxAge(0); // empties the cache
            try (TokenInfo info = cached.introspect(token)) {
                assertFalse(info.active());
            }
        }
    }

    /** Revokes {@code token} at django-oauth-toolkit (RFC 7009) as its machine client; the HTTP status. */
    private static int revoke(String token) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(djangoIssuer + "/revoke_token/").openConnection();
        String credentials = providers.djangoClient("machine", "client_id") + ":"
                + providers.djangoClient("machine", "client_secret");
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setRequestProperty("Authorization",
                "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        connection.setRequestProperty("Content-Type", "application/x-www-form-urlencoded");
        try (OutputStream body = connection.getOutputStream()) {
            body.write(("token=" + TestSupport.encode(token)).getBytes(StandardCharsets.UTF_8));
        }
        try {
            return connection.getResponseCode();
        } finally {
            connection.disconnect();
        }
    }

    @Test
    void argumentsAreChecked() {
        try (Config config = machine("client_secret_basic"); Client client = new Client(config);
             ResourceServer server = new ResourceServer(client, "api")) {
            assertThrows(InvalidArgumentException.class, () -> new ResourceServer(client, "").close());
            assertThrows(InvalidArgumentException.class, () -> server.setIntrospectionCacheMaxAge(-1));
            assertThrows(InvalidArgumentException.class, () -> server.setIntrospectionCacheMaxAge(86401));
            assertThrows(InvalidArgumentException.class, () -> server.setAccessTokenSigningAlgorithms("HS256"));
            assertThrows(InvalidArgumentException.class, () -> new ClientCredentials(client, "").close());
            assertThrows(IllegalArgumentException.class, () -> server.introspect("a\u0000b"));
        }
        try (Config config = Config.builder().issuer(djangoIssuer).clientId("native-app").build();
             Client client = new Client(config)) {
            ConfigurationException e = assertThrows(ConfigurationException.class, () -> new ClientCredentials(client, null).close());
            assertTrue(e.getMessage().contains("public"), e.getMessage());
        }
    }

    @Test
    void aResourceServerAndClientCredentialsOutliveTheirClosedClient() {
        String token = machineToken(null);
        ResourceServer server;
        ClientCredentials credentials;
        try (Config config = backend().build(); Client client = new Client(config)) {
            server = new ResourceServer(client, "api");
        }
        try (Config config = machine("client_secret_post"); Client client = new Client(config)) {
            credentials = new ClientCredentials(client, null);
        }
        try (ResourceServer s = server; ClientCredentials c = credentials; TokenInfo info = s.introspect(token);
             TokenInfo own = s.introspect(c.accessToken())) {
            assertTrue(info.active());
            assertTrue(own.active());
            assertEquals("machine-app", own.clientId());
        }
        assertThrows(IllegalStateException.class, () -> server.introspect(token));
    }

    @Test
    void jwtAccessTokensAtGlewlwyd() {
        String clientId = field(providers.glewlwyd(), "machine_client_id");
        String scope = field(providers.glewlwyd(), "machine_scope");
        try (Config config = Config.builder().issuer(glewlwydIssuer).clientId(clientId)
                .clientSecret(field(providers.glewlwyd(), "machine_client_secret"))
                .tokenEndpointAuthMethod("client_secret_basic")
                .build();
             Client client = new Client(config); ClientCredentials credentials = new ClientCredentials(client, scope);
             ResourceServer server = new ResourceServer(client, scope)) {
            String token = credentials.accessToken();
            // glewlwyd's aud is the token's scope list when no resource was asked for.
            try (TokenInfo info = server.verifyAccessToken(token)) {
                assertTrue(info.active());
                assertEquals(clientId, info.clientId());
                assertEquals(clientId, info.subject());
                assertEquals(glewlwydIssuer, info.issuer());
                assertEquals(scope, info.scope());
                assertEquals(scope, info.audience());
                assertTrue(Math.abs(info.expiresAt() - credentials.expiresAt()) <= 2,
                        info.expiresAt() + " " + credentials.expiresAt());
                assertNotNull(info.tokenId());
                assertTrue(info.issuedAt() > 0);
                assertEquals("\"access_token\"", info.member("type"));
                assertTrue(info.json().replace(" ", "").contains("\"client_id\":\"" + clientId + "\""), info.json());
            }
            try (ResourceServer other = new ResourceServer(client, "https://api.example/")) {
                TokenInvalidException e = assertThrows(TokenInvalidException.class, () -> other.verifyAccessToken(token));
                assertTrue(e.getMessage().contains("not meant for"), e.getMessage());
            }
            server.setAccessTokenSigningAlgorithms("ES256"); // glewlwyd signs with RS256
            TokenInvalidException algorithm = assertThrows(TokenInvalidException.class, () -> server.verifyAccessToken(token));
            assertTrue(algorithm.getMessage().contains("RS256"), algorithm.getMessage());
            server.setAccessTokenSigningAlgorithms(null);
            String tampered = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
            assertThrows(TokenInvalidException.class, () -> server.verifyAccessToken(tampered));
            // Introspection, at the discovered endpoint, by the client of the client credentials grant.
            try (TokenInfo answer = server.introspect(token)) {
                assertTrue(answer.active());
                assertEquals(clientId, answer.clientId());
                assertEquals("bearer", answer.tokenType());
                assertEquals(scope, answer.scope());
            }
            try (TokenInfo answer = server.introspect("not-a-token")) {
                assertFalse(answer.active());
            }
        }
    }

    @Test
    void typJwtAccessTokensAtLemonLdapOnlyBySetting() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Paths.get("/usr/sbin/llng-fastcgi-server")),
                "LemonLDAP::NG is not installed (scripts/setup.sh)");
        // Its machine relying party (MACHINE_CLIENT_ID, MACHINE_CLIENT_SECRET in lemonldap_provider.py): the
        // serve line names only the issuer and the public client.
        String clientId = "machine-app";
        Process[] started = new Process[1];
        String line = PythonProcess.startServer("Tests/support/lemonldap_provider.py", started, "serve");
        String issuer = field(line, "issuer");
        try (Config config = Config.builder().issuer(issuer).clientId(clientId).clientSecret("machine-secret").build();
             Client client = new Client(config); ClientCredentials credentials = new ClientCredentials(client, "openid");
             ResourceServer server = new ResourceServer(client, clientId)) {
            String token = credentials.accessToken();
            // LemonLDAP::NG 2.16 writes typ JWT, not at+jwt, and names the client as the audience.
            TokenInvalidException typ = assertThrows(TokenInvalidException.class, () -> server.verifyAccessToken(token));
            assertTrue(typ.getMessage().contains("accepting typ JWT is a setting"), typ.getMessage());
            server.setAcceptTypJwt(true);
            try (TokenInfo info = server.verifyAccessToken(token); TokenInfo answer = server.introspect(token)) {
                assertEquals(clientId, info.clientId());
                assertEquals(clientId, info.subject());
                assertEquals("openid", info.scope());
                assertEquals(clientId, info.audience());
                assertEquals(issuer, info.issuer());
                // Introspection at the discovered endpoint (client_secret_basic).
                assertTrue(answer.active());
                assertEquals(clientId, answer.clientId());
                assertEquals(info.expiresAt(), answer.expiresAt());
            }
            server.setAcceptTypJwt(false);
            assertThrows(TokenInvalidException.class, () -> server.verifyAccessToken(token));
            try (TokenInfo answer = server.introspect("not-a-token")) {
                assertFalse(answer.active());
            }
        } finally {
            started[0].destroy();
            started[0].waitFor(15, TimeUnit.SECONDS);
        }
    }
}
