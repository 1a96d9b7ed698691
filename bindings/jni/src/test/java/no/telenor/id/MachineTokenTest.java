package no.telenor.id;

import static no.telenor.id.MachineProviders.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A machine's own token through the JNI bridge beyond the plain client credentials grant of
 * {@link ResourceServerTest}, as Tests/python/test_machine_tokens.py does through ctypes: resource indicators (RFC
 * 8707), request headers, a token shared through a store at django-oauth-toolkit, a DPoP-bound token (RFC 9449) at
 * glewlwyd, and the JWT bearer grant (RFC 7523 §2.1) at Authlib's server-side grant
 * (Tests/support/jwt_bearer_provider.py).
 */
class MachineTokenTest {
    @RegisterExtension
    static final MachineProviders providers = new MachineProviders();
    private static String authlibLine;
    private static String glewlwydLine;

    @BeforeAll
    static void start() throws IOException {
        glewlwydLine = providers.glewlwyd();
        authlibLine = providers.startAnother("Tests/support/jwt_bearer_provider.py");
    }

    private static Config djangoMachine() {
        return providers.djangoMachine().build();
    }

    /** glewlwyd's machine client, configured for DPoP (RFC 9449). */
    private static Config glewlwydDPoPMachine() {
        return Config.builder().issuer(field(glewlwydLine, "", "issuer"))
                .clientId(field(glewlwydLine, "", "machine_client_id"))
                .clientSecret(field(glewlwydLine, "", "machine_client_secret")).dpopSigningAlgorithm("ES256").build();
    }

    @Test
    void resourcesAndRequestHeadersOfABearerToken() {
        try (Config config = djangoMachine(); Client client = new Client(config);
             ClientCredentials credentials = new ClientCredentials(client, "profile")) {
            assertThrows(InvalidArgumentException.class, () -> credentials.addResource("not a uri"));
            assertThrows(InvalidArgumentException.class, () -> credentials.addResource("https://api.example/#f"));
            String token = credentials.accessToken();
            RequestHeaders headers = credentials.requestHeaders("GET", "https://api.example/items", null);
            assertEquals("Bearer " + token, headers.authorization());
            assertNull(headers.dpop(), "a bearer token has no proof");
            assertThrows(InsecureException.class, () -> credentials.requestHeaders("GET", "http://api.example/", null));
            // django-oauth-toolkit takes the resource parameter without acting on it (RFC 8707 §2 lets a server
            // ignore it); the token held was asked for without it, so a new one is asked for.
            credentials.addResource("https://api.example/");
            assertNotEquals(token, credentials.accessToken());
        }
    }

    @Test
    void handlesBoundToOneRecordShareOneToken() throws IOException {
        Path directory = Files.createTempDirectory("telenorid-machine");
        try (Config config = djangoMachine(); Client client = new Client(config);
             ClientCredentials first = new ClientCredentials(client, "profile");
             ClientCredentials second = new ClientCredentials(client, "profile")) {
            first.bindStore(new DirectoryStore(directory.toString()), "machine");
            second.bindStore(new DirectoryStore(directory.toString()), "machine");
            String token = first.accessToken();
            assertEquals(token, second.accessToken(), "taken up from the store, not asked for again");
            String record = new String(Files.readAllBytes(directory.resolve("machine.json")), "UTF-8");
            assertTrue(record.contains("\"machine_grant\""), record.length() + " bytes");
            assertThrows(InvalidArgumentException.class,
                    () -> first.bindStore(new DirectoryStore(directory.toString()), "not/a/key"));
        } finally {
            try (java.util.stream.Stream<Path> files = Files.list(directory)) {
                files.forEach(file -> file.toFile().delete());
            }
            Files.delete(directory);
        }
    }

    private static Config.Builder authlibClient() {
        return Config.builder().issuer(field(authlibLine, "", "issuer"))
                .tokenEndpoint(field(authlibLine, "", "token_endpoint"))
                .introspectionEndpoint(field(authlibLine, "", "introspection_endpoint"))
                .clientId(field(authlibLine, "\"client\"", "client_id"))
                .clientSecret(field(authlibLine, "\"client\"", "client_secret"))
                // The key signs the grant's assertions; the client authenticates with its secret.
                .tokenEndpointAuthMethod("client_secret_basic");
    }

    @Test
    void theJwtBearerGrantWithTheLibrarysOwnAssertions() {
        String pem = field(authlibLine, "\"client\"", "private_key_pem").replace("\\n", "\n");
        try (Config config = authlibClient().clientPrivateKey(pem).build(); Client client = new Client(config);
             ClientCredentials credentials = ClientCredentials.jwtBearer(client, "read", "alice");
             ResourceServer server = new ResourceServer(client, "machine-jwt")) {
            String token = credentials.accessToken();
            assertEquals(token, credentials.accessToken(), "kept");
            try (TokenInfo info = server.introspect(token)) {
                assertTrue(info.active());
                assertEquals("alice", info.subject());
                assertEquals("read", info.scope());
            }
            credentials.rejected(null);
            assertNotEquals(token, credentials.accessToken(), "renewed with a new assertion");
            try (ClientCredentials unknown = ClientCredentials.jwtBearer(client, null, "mallory")) {
                AuthorizationErrorException e = assertThrows(AuthorizationErrorException.class, unknown::accessToken);
                assertEquals("invalid_grant", e.oauthError());
            }
        }
        try (Config config = authlibClient().build(); Client client = new Client(config)) {
            assertThrows(ConfigurationException.class, () -> ClientCredentials.jwtBearer(client, null, "alice").close());
            try (ClientCredentials given = ClientCredentials.jwtBearerWithAssertion(client, null, "a.b.c")) {
                assertThrows(InvalidArgumentException.class,
                        () -> given.bindStore(new DirectoryStore("/tmp"), "machine"));
                assertThrows(AuthorizationErrorException.class, given::accessToken); // no valid JWT
                assertThrows(ConsumedException.class, given::accessToken, "sent once");
            }
            assertThrows(InvalidArgumentException.class,
                    () -> ClientCredentials.jwtBearerWithAssertion(client, null, "not a jwt").close());
        }
    }

    @Test
    void aClientConfiguredForDPoPGetsATokenBoundToItsKey() {
        String scope = field(glewlwydLine, "", "machine_scope");
        String api = "https://api.example/items";
        try (Config config = glewlwydDPoPMachine();
             Client client = new Client(config); ClientCredentials credentials = new ClientCredentials(client, scope);
             ResourceServer server = new ResourceServer(client, scope)) {
            RequestHeaders headers = credentials.requestHeaders("GET", api, null);
            assertTrue(headers.authorization().startsWith("DPoP "), "token_type DPoP (RFC 9449 §5)");
            String token = headers.authorization().substring(5);
            String proof = headers.dpop();
            try (TokenInfo info = server.verifyAccessToken(token)) {
                assertEquals(43, info.confirmationThumbprint().length(), "cnf.jkt (RFC 9449 §6.1)");
                server.verifyDPoP(proof, "GET", api, token, info); // the proof was made with that key
            }
        }
    }

    /**
     * The status of a resource server's answer to one request, checked with {@code server} (the token, then its
     * proof), and whether the machine's token says to send it once more. A refusal is the 401 whose
     * WWW-Authenticate carries the error the library names (RFC 9449 §7.1, RFC 6750 §3.1); a server that asks for
     * nonces sends its DPoP-Nonce (§9).
     */
    private static boolean answered(ClientCredentials credentials, ResourceServer server, boolean asksNonces,
            String api, RequestHeaders headers, int[] status) {
        String token = headers.authorization().substring(5);
        String challenge = null;
        status[0] = 200;
        try (TokenInfo info = server.verifyAccessToken(token)) {
            server.verifyDPoP(headers.dpop(), "GET", api, token, info);
        } catch (TokenInvalidException refused) {
            status[0] = 401;
            challenge = "DPoP error=\"" + (refused.oauthError() != null ? refused.oauthError() : "invalid_token") + "\"";
        }
        String nonce = asksNonces ? server.dpopNonce() : null;
        return credentials.resourceAnswered(api, status[0], challenge, nonce, headers.authorization());
    }

    @Test
    void aResourcesAnswerSaysWhetherToRetryOnce() {
        String scope = field(glewlwydLine, "", "machine_scope");
        String api = "https://api.example/items";
        int[] status = new int[1];
        try (Config config = glewlwydDPoPMachine();
             Client client = new Client(config); ClientCredentials credentials = new ClientCredentials(client, scope);
             ResourceServer nonces = new ResourceServer(client, scope);
             ResourceServer elsewhere = new ResourceServer(client, "https://elsewhere.example/")) {
            nonces.setDPoPRequireNonce(true);
            RequestHeaders first = credentials.requestHeaders("GET", api, null);
            assertTrue(answered(credentials, nonces, true, api, first, status), "use_dpop_nonce with its nonce");
            assertEquals(401, status[0]);
            RequestHeaders again = credentials.requestHeaders("GET", api, null);
            assertEquals(first.authorization(), again.authorization());
            assertTrue(!answered(credentials, nonces, true, api, again, status) && status[0] == 200, "the nonce kept");
            // A server the token is not meant for refuses it (RFC 9068 §4: invalid_token): the retry has a new one.
            assertTrue(answered(credentials, elsewhere, false, api, again, status));
            RequestHeaders renewed = credentials.requestHeaders("GET", api, null);
            assertNotEquals(again.authorization(), renewed.authorization());
            assertTrue(!answered(credentials, nonces, true, api, renewed, status) && status[0] == 200);
            assertThrows(InvalidArgumentException.class,
                    () -> credentials.resourceAnswered(api, 42, null, null, renewed.authorization()));
        }
    }
}
