package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The auth state's session calls through the JNI bridge against the real provider (django-oauth-toolkit,
 * which rotates refresh tokens): a state kept in a file and shared, "is the grant alive?", a token the
 * host's API refused, and revoke signing out first. Tests/python/test_session_truth.py covers the
 * provider's odd answers through the C ABI; this checks the Java surface reaches them.
 */
class SessionTruthTest {
    private static Provider provider;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        provider = new Provider();
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    private static AuthState signIn(Client client) throws Exception {
        try (Config config = client.config();
             AuthorizationRequest request = new AuthorizationRequest(config);
             PendingAuthorization pending = request.build();
             AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false))) {
            return client.exchangeCode(callback);
        }
    }

    @Test
    void aStateSharedThroughAFileNeverSpendsARefreshTokenTwice() throws Exception {
        Path file = dir.resolve("auth-state.json");
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState first = signIn(client)) {
            first.bindFile(file.toString());
            // It holds the refresh token: readable by its owner only.
            assertTrue(Files.exists(file));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

            try (AuthState second = client.openAuthStateFile(file.toString())) {
                assertTrue(second.isSignedIn());
                String spent = first.get(AuthState.Field.REFRESH_TOKEN);
                assertEquals(spent, second.get(AuthState.Field.REFRESH_TOKEN));

                first.refresh();
                String rotated = first.get(AuthState.Field.REFRESH_TOKEN);
                assertNotEquals(spent, rotated, "the provider rotates");
                // The second one's refresh takes the first one's tokens from the file instead of redeeming
                // the spent refresh token, which the provider would refuse (and revoke the grant for).
                second.refresh();
                assertEquals(rotated, second.get(AuthState.Field.REFRESH_TOKEN));
                assertEquals(first.get(AuthState.Field.ACCESS_TOKEN), second.get(AuthState.Field.ACCESS_TOKEN));
                first.refresh(); // the grant is still alive

                // A sign-out through the file is seen at the other's next refresh.
                first.revoke();
                assertThrows(NotSignedInException.class, second::refresh);
                assertFalse(second.isSignedIn());
            }
        }
    }

    @Test
    void aFileThatDoesNotExistYetOpensSignedOut() throws Exception {
        Path file = dir.resolve("new.json");
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState state = client.openAuthStateFile(file.toString())) {
            assertFalse(state.isSignedIn());
            assertTrue(Files.exists(file), "created");
            assertThrows(NotSignedInException.class, state::check);
            assertThrows(ConfigurationException.class, () -> state.bindFile(dir.resolve("no/such/dir/s.json").toString()));
            assertThrows(NullPointerException.class, () -> state.bindFile(null));
            assertThrows(NullPointerException.class, () -> client.openAuthStateFile(null));
        }
    }

    @Test
    void checkRejectedTokenAndRevoke() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState state = signIn(client)) {
            String refreshToken = state.get(AuthState.Field.REFRESH_TOKEN);
            state.check(); // alive, asked without rotating anything
            assertEquals(refreshToken, state.get(AuthState.Field.REFRESH_TOKEN));

            String rejected = state.freshAccessToken();
            state.accessTokenRejected("some-older-token"); // a token the state no longer holds: nothing
            assertEquals(rejected, state.freshAccessToken());
            state.accessTokenRejected();
            String next = state.freshAccessToken();
            assertNotEquals(rejected, next, "refreshed instead of handed out again");
            state.accessTokenRejected(rejected); // a late report about the replaced token
            assertEquals(next, state.freshAccessToken());

            // Revoke signs out first and stays signed out; the grant is gone for check() too.
            state.revoke();
            assertFalse(state.isSignedIn());
            assertThrows(NotSignedInException.class, state::check);
            assertThrows(NotSignedInException.class, state::revoke);
        }
    }
}
