package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's {@link Store} and the {@link DirectoryStore} through the JNI bridge, against the real provider
 * (django-oauth-toolkit, which rotates refresh tokens): eight states on one record refresh once, a store that
 * throws fails the call with {@link StoreFailedException} caused by what it threw.
 */
class StoreTest {
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

    /** Records in a map, a lock per name; throws on cue. */
    static final class MapStore implements Store {
        final Map<String, byte[]> records = new ConcurrentHashMap<>();
        final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
        volatile boolean failing;
        /** Refuses every write but a refresh's marker: the write of a refresh's answer fails. */
        volatile boolean refusingAnswers;

        @Override
        public byte[] load(String key) throws IOException {
            if (failing) {
                throw new IOException("the keychain is locked");
            }
            return records.get(key);
        }

        @Override
        public void store(String key, byte[] data) throws IOException {
            if (refusingAnswers && !new String(data, StandardCharsets.UTF_8).contains("refresh_started_at")) {
                throw new IOException("disk full");
            }
            records.put(key, data.clone());
        }

        @Override
        public boolean lock(String name, long timeoutMillis) throws InterruptedException {
            return locks.computeIfAbsent(name, n -> new ReentrantLock()).tryLock(timeoutMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void unlock(String name) {
            locks.get(name).unlock();
        }
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
    void eightStatesOnOneRecordRefreshOnce() throws Exception {
        MapStore store = new MapStore();
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState first = signIn(client)) {
            String spent = first.get(AuthState.Field.REFRESH_TOKEN);
            first.bindStore(store, "alice");
            List<AuthState> states = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                states.add(client.openStore(store, "alice"));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<String> tokens = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (AuthState state : states) {
                Thread thread = new Thread(() -> {
                    try {
                        go.await();
                        state.refresh();
                        synchronized (tokens) {
                            tokens.add(state.get(AuthState.Field.ACCESS_TOKEN));
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(8, tokens.size());
            assertEquals(1, tokens.stream().distinct().count(), "one refresh between them");
            String record = new String(store.records.get("alice"), StandardCharsets.UTF_8);
            assertFalse(record.contains(spent) || record.contains("refresh_started_at"), "the answer replaced the marker");
            for (AuthState state : states) {
                state.close();
            }
        }
    }

    @Test
    void aStoreThatThrowsFailsTheCallWithItsCause() throws Exception {
        MapStore store = new MapStore();
        try (Config settings = provider.config().build(); Client client = new Client(settings)) {
            try (AuthState state = client.openStore(store, "bob")) {
                assertFalse(state.isSignedIn());
            }
            store.failing = true;
            StoreFailedException e = assertThrows(StoreFailedException.class, () -> client.openStore(store, "bob"));
            assertInstanceOf(IOException.class, e.getCause());
            assertTrue(e.getMessage().contains("load of \"bob\""), e.getMessage());
            store.failing = false;
            store.records.put("bob", "{\"version\":1,\"access_token\":".getBytes(StandardCharsets.UTF_8));
            assertThrows(StoreFailedException.class, () -> client.openStore(store, "bob"));
            assertThrows(InvalidArgumentException.class, () -> client.openStore(store, "bob.update"));
            assertThrows(NullPointerException.class, () -> client.openStore((Store) null, "bob"));
        }
    }

    @Test
    void saveWritesTheTokensAFailingStoreRefused() throws Exception {
        MapStore store = new MapStore();
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState state = signIn(client)) {
            state.bindStore(store, "dave");
            store.refusingAnswers = true;
            StoreFailedException refused = assertThrows(StoreFailedException.class, state::refresh);
            assertInstanceOf(IOException.class, refused.getCause());
            String kept = state.get(AuthState.Field.REFRESH_TOKEN);
            assertTrue(new String(store.records.get("dave"), StandardCharsets.UTF_8).contains("refresh_started_at"));
            assertThrows(StoreFailedException.class, state::save);
            store.refusingAnswers = false;
            state.save();
            String record = new String(store.records.get("dave"), StandardCharsets.UTF_8);
            assertTrue(record.contains(kept) && !record.contains("refresh_started_at"), "the kept tokens are stored");
            // Signed in only now: a sign-in of the same user before the refresh gives the refreshed ID token
            // that later auth_time, which the refresh refuses (OpenID Connect Core §12.2).
            try (AuthState unbound = signIn(client)) {
                assertThrows(InvalidArgumentException.class, unbound::save);
            }
        }
    }

    @Test
    void theDirectoryStoreKeepsEachKeyInItsFile() throws Exception {
        try (Config settings = provider.config().build(); Client client = new Client(settings);
             AuthState state = signIn(client)) {
            DirectoryStore store = new DirectoryStore(dir.toString());
            state.bindStore(store, "carol");
            assertTrue(Files.exists(dir.resolve("carol.json")));
            try (AuthState second = client.openStore(store, "carol")) {
                assertTrue(second.isSignedIn());
                second.refresh();
                assertNotEquals(state.get(AuthState.Field.ACCESS_TOKEN), second.get(AuthState.Field.ACCESS_TOKEN));
            }
        }
    }
}
