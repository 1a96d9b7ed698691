package no.telenor.id;

import static no.telenor.id.TestSupport.REDIRECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class LifecycleTest {
    private static void assertClosed(NativeObject object, Executable use) {
        assertTrue(object.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, use);
        assertTrue(e.getMessage().contains(object.getClass().getSimpleName()), e.getMessage());
        object.close(); // a second close is a no-op
        object.close();
        assertTrue(object.isClosed());
    }

    @Test
    void useAfterCloseThrowsIllegalStateAndCloseIsIdempotent() {
        Config config = TestSupport.config();
        AuthorizationRequest request = new AuthorizationRequest(config).appToApp(TestSupport.APP_CALLBACK);
        PendingAuthorization pending = request.build();
        AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=c&state=" + pending.state());
        AppCallback appCallback = pending.handleAppCallback(TestSupport.APP_CALLBACK + "?state=" + pending.state());
        Pkce pkce = Pkce.generate();
        for (NativeObject object : new NativeObject[] {config, request, pending, callback, appCallback, pkce}) {
            assertFalse(object.isClosed());
            assertTrue(object.toString().endsWith("[open]"));
            object.close();
            assertTrue(object.toString().endsWith("[closed]"));
        }
        assertClosed(config, () -> config.get(Config.Key.ISSUER));
        assertClosed(config, () -> new AuthorizationRequest(config));
        assertClosed(config, () -> PendingAuthorization.restore(config, "{}"));
        assertClosed(request, request::build);
        assertClosed(request, () -> request.loginHint("x"));
        assertClosed(pending, pending::url);
        assertClosed(pending, () -> pending.handleCallback(REDIRECT + "?code=c&state=x"));
        assertClosed(callback, callback::code);
        assertClosed(callback, () -> callback.parameter("scope"));
        assertClosed(appCallback, appCallback::resumeUri);
        assertClosed(pkce, pkce::challenge);
    }

    @Test
    void childrenOutliveTheirParents() {
        Config config = TestSupport.config();
        AuthorizationRequest request = new AuthorizationRequest(config);
        config.close();
        PendingAuthorization pending = request.build(); // the request keeps the native configuration alive
        request.close();
        String state = pending.state();
        AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=c&state=" + state);
        pending.close();
        assertEquals("c", callback.code());
        assertTrue(callback.pending().isClosed());
        assertTrue(callback.pending().config().isClosed());
        callback.close();
    }

    @Test
    void closeWaitsForCallsInFlightAndCallsAfterItFailCleanly() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 20; round++) {
                Config config = TestSupport.config();
                PendingAuthorization pending;
                try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                    pending = request.build();
                }
                String expected = pending.state();
                AtomicInteger ok = new AtomicInteger(), closed = new AtomicInteger();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    futures.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 200; i++) {
                            try {
                                assertEquals(expected, pending.state());
                                pending.url();
                                ok.incrementAndGet();
                            } catch (IllegalStateException e) {
                                closed.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                Thread.sleep(1);
                pending.close();
                config.close();
                for (Future<?> future : futures) {
                    future.get(30, TimeUnit.SECONDS); // rethrows any unexpected failure
                }
                assertEquals(8 * 200, ok.get() + closed.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRequestIsSafeToMutateFromManyThreads() throws Exception {
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 50; i++) {
                            request.addParameter("p" + thread + "_" + i, "v" + i);
                            request.loginHint("hint" + thread);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            try (PendingAuthorization pending = request.build()) {
                Map<String, String> params = TestSupport.query(pending.url());
                for (int t = 0; t < 8; t++) {
                    for (int i = 0; i < 50; i++) {
                        assertEquals("v" + i, params.get("p" + t + "_" + i));
                    }
                }
            }
        }
    }

    @Test
    void unclosedObjectsAreFreedAfterCollection() throws Exception {
        long before = NativeCleaner.cleanedCount();
        try (Config config = TestSupport.config()) {
            for (int i = 0; i < 2000; i++) {
                // Deliberately not closed.
                AuthorizationRequest request = new AuthorizationRequest(config);
                request.build().state();
                Pkce.generate().challenge();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (NativeCleaner.cleanedCount() - before < 1000 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(NativeCleaner.cleanedCount() - before >= 1000,
                "cleaned " + (NativeCleaner.cleanedCount() - before) + " of 6000");
    }

    @Test
    void explicitlyClosedObjectsAreNotFreedAgainByTheCleaner() throws Exception {
        // Closed objects unregister; collecting them later must not call a free function a second time
        // (which would be a double free and likely crash the JVM).
        for (int i = 0; i < 2000; i++) {
            try (Pkce pkce = Pkce.generate()) {
                pkce.verifier();
            }
        }
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        try (Pkce pkce = Pkce.fromVerifier(TestSupport.RFC7636_VERIFIER)) {
            assertEquals(TestSupport.RFC7636_CHALLENGE, pkce.challenge());
        }
    }
}
