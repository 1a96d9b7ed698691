package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The library's log through java.util.logging against the real provider: a confidential client's sign-in,
 * refresh and revocation give their events at their levels, each HTTP exchange a FINE record, nothing below
 * the logger's level reaches Java once told, and no record holds a token, the code's verifier or the secret.
 */
class LogTest {
    private static Provider provider;

    @BeforeAll
    static void start() throws Exception {
        provider = new Provider();
    }

    @AfterAll
    static void stop() throws Exception {
        provider.close();
    }

    /** Every record the telenorid logger publishes, at FINE and above while installed. */
    private static final class Records extends Handler implements AutoCloseable {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();
        private final Logger logger = Logger.getLogger(TelenoridLog.LOGGER_NAME);

        Records(Level level) {
            logger.addHandler(this);
            logger.setLevel(level);
            TelenoridLog.syncLevel();
        }

        List<String> messages(Level level, String event) {
            List<String> found = new ArrayList<>();
            for (LogRecord record : records) {
                if (record.getLevel().equals(level) && record.getMessage().startsWith(event + " ")) {
                    found.add(record.getMessage());
                }
            }
            return found;
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setLevel(null);
            TelenoridLog.syncLevel();
        }
    }

    @Test
    void aSignInLogsItsEventsAndNoSecret() throws Exception {
        List<String> secrets = new ArrayList<>();
        try (Records log = new Records(Level.FINE);
             Config config = provider.config().clientId(provider.backendClientId).clientSecret(provider.backendSecret)
                     .build();
             Client client = new Client(config);
             AuthorizationRequest request = new AuthorizationRequest(client.config());
             PendingAuthorization pending = request.build();
             AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false));
             AuthState state = client.exchangeCode(callback)) {
            secrets.add(pending.codeVerifier());
            secrets.add(provider.backendSecret);
            for (AuthState.Field field : new AuthState.Field[] {AuthState.Field.ACCESS_TOKEN, AuthState.Field.REFRESH_TOKEN,
                                                                AuthState.Field.ID_TOKEN}) {
                secrets.add(state.get(field));
            }
            state.refresh();
            secrets.add(state.get(AuthState.Field.ACCESS_TOKEN));
            secrets.add(state.get(AuthState.Field.REFRESH_TOKEN));
            state.revoke();

            assertEquals(List.of("discovery.fetched provider metadata of " + provider.issuer),
                         log.messages(Level.INFO, "discovery.fetched"));
            assertEquals(1, log.messages(Level.INFO, "token.exchanged").size());
            assertEquals(1, log.messages(Level.INFO, "token.refreshed").size());
            assertEquals(List.of("auth_state.signed_out signed out to revoke the grant"),
                         log.messages(Level.INFO, "auth_state.signed_out"));
            List<String> http = log.messages(Level.FINE, "http.request");
            assertTrue(http.stream().anyMatch(line -> line.startsWith(
                    "http.request GET " + provider.issuer + "/.well-known/openid-configuration 200 ")), http.toString());
            assertEquals(2, http.stream().filter(line -> line.startsWith(
                    "http.request POST " + provider.issuer + "/token/ 200 ")).count(), http.toString());
            assertTrue(http.stream().allMatch(line -> line.matches(".* [0-9]+ ms")), http.toString());
            for (LogRecord record : log.records) {
                for (String secret : secrets) {
                    assertFalse(secret == null || record.getMessage().contains(secret), record.getMessage());
                }
            }
        }
    }

    @Test
    void nothingBelowTheLoggersLevelIsPublished() throws Exception {
        try (Records log = new Records(Level.INFO); Config config = provider.config().build();
             Client client = new Client(config)) {
            client.discover();
            assertEquals(1, log.messages(Level.INFO, "discovery.fetched").size());
            assertTrue(log.messages(Level.FINE, "http.request").isEmpty());
        }
        assertEquals(20, LogSink.minimumLevel(Level.CONFIG));
        assertEquals(10, LogSink.minimumLevel(Level.ALL));
        assertEquals(Integer.MAX_VALUE, LogSink.minimumLevel(Level.OFF));
    }
}
