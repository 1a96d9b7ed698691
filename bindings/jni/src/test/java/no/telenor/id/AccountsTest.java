package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Accounts} through the JNI bridge against the real provider: the same user signing in twice is one
 * account, select opens it from the store, remove revokes it and drops it; the app's store and the directory
 * store; an unknown account and a bad name.
 */
class AccountsTest {
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

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    private void addSelectRemove(Client client, Accounts accounts) throws Exception {
        try (AuthState first = signIn(client); AuthState again = signIn(client)) {
            String id = accounts.add(first);
            assertEquals(12, id.length());
            assertEquals(id, accounts.add(again));
            String list = accounts.listJson();
            assertEquals(1, count(list, "\"id\""), list);
            assertTrue(list.contains("\"preferred_username\":\"" + provider.username + "\""), list);
            try (AuthState selected = accounts.select(id)) {
                assertFalse(selected.freshAccessToken().isEmpty());
                accounts.remove(id);
                assertThrows(NotSignedInException.class, selected::refresh);
            }
            assertEquals("[]", accounts.listJson());
            assertThrows(NotSignedInException.class, () -> accounts.select(id));
            assertThrows(NotSignedInException.class, () -> accounts.remove(id));
        }
    }

    @Test
    void theAppsStoreKeepsAccounts() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             Accounts accounts = client.openAccounts(new StoreTest.MapStore(), "app")) {
            addSelectRemove(client, accounts);
        }
    }

    @Test
    void theDirectoryStoreKeepsAccounts() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             Accounts accounts = client.openAccounts(new DirectoryStore(dir.toString()), "app")) {
            addSelectRemove(client, accounts);
            assertThrows(InvalidArgumentException.class, () -> client.openAccounts(new DirectoryStore(dir.toString()), "a/b"));
        }
    }
}
