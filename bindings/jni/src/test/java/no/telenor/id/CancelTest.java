package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Cancellation from another thread: {@link Client#cancel()} ends a blocked call and
 * {@link LoopbackListener#cancel()} a wait, each within 100 ms with {@link CancelledException}, and the
 * object works afterwards.
 */
class CancelTest {
    /** Runs {@code body} on a new thread, keeping what it threw and when it ended. */
    private static final class Call {
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final AtomicLong endedNanos = new AtomicLong();
        final Thread thread;

        Call(Runnable body) {
            thread = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    thrown.set(t);
                }
                endedNanos.set(System.nanoTime());
            });
            thread.start();
        }

        Throwable join() throws InterruptedException {
            thread.join(30_000);
            assertFalse(thread.isAlive(), "the call did not return");
            return thrown.get();
        }
    }

    @Test
    void clientCancelEndsABlockedCall() throws Exception {
        // Takes connections (the kernel completes them) and never answers.
        try (ServerSocket silent = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             Config config = Config.builder().issuer("http://127.0.0.1:" + silent.getLocalPort()).clientId("tnn-example")
                     .redirectUri("telenorid-example://cb/").timeoutMillis(20_000).build();
             Client client = new Client(config)) {
            client.cancel(); // nothing in flight: cancels nothing to come
            Call call = new Call(client::discover);
            Thread.sleep(300);
            assertTrue(call.thread.isAlive(), "the call waits for the silent server");
            long cancelled = System.nanoTime();
            client.cancel();
            Throwable thrown = call.join();
            assertInstanceOf(CancelledException.class, thrown);
            assertFalse(((TelenoridException) thrown).isTransient());
            assertTrue(call.endedNanos.get() - cancelled < 100_000_000L, "ended within 100 ms");
        }
    }

    @Test
    void loopbackCancelEndsAWaitAndTheListenerWaitsAgain() throws Exception {
        try (LoopbackListener listener = new LoopbackListener(0, null)) {
            Call call = new Call(() -> listener.awaitRedirect(20_000));
            Thread.sleep(200);
            long cancelled = System.nanoTime();
            listener.cancel();
            assertInstanceOf(CancelledException.class, call.join());
            assertTrue(call.endedNanos.get() - cancelled < 100_000_000L, "ended within 100 ms");
            long start = System.nanoTime();
            assertThrows(NetworkTimeoutException.class, () -> listener.awaitRedirect(300));
            assertTrue(System.nanoTime() - start >= 290_000_000L);
        }
    }
}
