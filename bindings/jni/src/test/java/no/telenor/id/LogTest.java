package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
 * the logger's level reaches Java once told, no record holds a token, the code's verifier or the secret, and
 * by default (in a JVM of its own, with the JDK's logging configuration) the logger's level is WARNING, so
 * the INFO events stay off stderr.
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
        private final Level before = logger.getLevel();

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
            logger.setLevel(before);
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

    /** Run in a JVM of its own: the logger's level after loading, then a discovery (an INFO event). */
    public static final class Discover {
        public static void main(String[] args) throws Exception {
            Telenorid.load();
            System.out.println("level=" + Logger.getLogger(TelenoridLog.LOGGER_NAME).getLevel());
            try (Config config = Config.builder().issuer(args[0]).clientId(args[1]).redirectUri(args[2]).build();
                 Client client = new Client(config)) {
                client.discover();
            }
        }
    }

    /** The child's exit status, then its standard output and error together. */
    private static String[] discoverInChild(String... jvmOptions) throws Exception {
        String classpath = System.getProperty("telenorid.test.classpath");
        assumeTrue(classpath != null, "telenorid.test.classpath is not set");
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", classpath, Discover.class.getName(), provider.issuer, provider.clientId,
                               Provider.REDIRECT));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), output};
    }

    @Test
    void theDefaultLevelIsWarningSoInfoStaysOffStderr() throws Exception {
        String[] quiet = discoverInChild();
        assertEquals("0", quiet[0], quiet[1]);
        assertTrue(quiet[1].contains("level=WARNING"), quiet[1]);
        assertFalse(quiet[1].contains("discovery.fetched"), quiet[1]);
        // The same program with the level the host asks for in its logging configuration: the event is there
        // (on stderr, through the JDK's console handler), and the level is the host's.
        Path properties = Files.createTempFile("telenorid-logging", ".properties");
        try {
            Files.write(properties, List.of("handlers = java.util.logging.ConsoleHandler",
                                            "java.util.logging.ConsoleHandler.level = ALL",
                                            "telenorid.level = INFO"));
            String[] told = discoverInChild("-Djava.util.logging.config.file=" + properties);
            assertEquals("0", told[0], told[1]);
            assertTrue(told[1].contains("level=INFO"), told[1]);
            assertTrue(told[1].contains("INFO: discovery.fetched provider metadata of " + provider.issuer), told[1]);
        } finally {
            Files.delete(properties);
        }
    }
}
