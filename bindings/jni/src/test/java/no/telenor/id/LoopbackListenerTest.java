package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The loopback redirect listener (RFC 8252 §7.3) through the JNI bridge: a whole sign-in at the real
 * provider with the browser redirected to it (browser.py's --follow mode plays a browser that follows the
 * final redirect), then the listener's own rules.
 */
class LoopbackListenerTest {
    private static int get(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setReadTimeout(30_000);  // a listener that never answers fails the test rather than hangs it
        try {
            return connection.getResponseCode();
        } finally {
            connection.disconnect();
        }
    }

    private static int port(String uri) {
        return Integer.parseInt(uri.replaceAll("^http://127\\.0\\.0\\.1:(\\d+)/.*$", "$1"));
    }

    /** Sends a request head as given (HttpURLConnection won't send a Host of our choosing) and returns the status. */
    private static int raw(int port, String head) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] status = in.readNBytes(12);
            return Integer.parseInt(new String(status, StandardCharsets.US_ASCII).substring(9, 12));
        }
    }

    /** Runs {@code body} on another thread, as a browser would, while the test thread waits. */
    private interface Browser {
        void run() throws Exception;
    }

    private static Thread browse(Browser body, List<Throwable> failures) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        thread.start();
        return thread;
    }

    @Test
    void foreignHostAndWrongStateGet400AndTheWaitGoesOn() throws Exception {
        try (LoopbackListener listener = new LoopbackListener(0, "/cb")) {
            // Read before the wait: the wait holds the listener, so the browser thread can't ask it.
            String uri = listener.redirectUri();
            int port = port(uri);
            assertThrows(InvalidArgumentException.class, () -> listener.expectState(""));
            listener.expectState("the-state");
            List<Throwable> failures = new ArrayList<>();
            Thread browser = browse(() -> {
                String callback = "GET /cb?code=c&state=the-state HTTP/1.1\r\n";
                // DNS rebinding: a page on another origin whose name now resolves to 127.0.0.1 sends its own Host.
                assertEquals(400, raw(port, callback + "Host: evil.example:" + port + "\r\n\r\n"));
                assertEquals(400, raw(port, callback + "\r\n"));
                assertEquals(400, get(uri + "?code=c&state=other"));
                assertEquals(400, get(uri + "?code=c"));
                assertEquals(400, get(uri + "?code=c&state=the-state&state=the-state"));
                assertEquals(200, raw(port, callback + "Host: localhost:" + port + "\r\n\r\n"));
            }, failures);
            assertEquals(uri + "?code=c&state=the-state", listener.awaitRedirect(30_000));
            browser.join();
            assertEquals(List.of(), failures);
        }
    }

    @Test
    void threeHundredIdleConnectionsDoNotKeepTheRedirectOut() throws Exception {
        try (LoopbackListener listener = new LoopbackListener(0, "/cb")) {
            String uri = listener.redirectUri();
            int port = port(uri);
            List<Socket> idle = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            long[] sent = new long[1];
            Thread browser = browse(() -> {
                for (int i = 0; i < 300; i++) {
                    idle.add(new Socket(InetAddress.getLoopbackAddress(), port));
                }
                Thread.sleep(1000);  // the listener is taking the flood in
                sent[0] = System.nanoTime();
                assertEquals(200, get(uri + "?code=c"));
            }, failures);
            try {
                assertEquals(uri + "?code=c", listener.awaitRedirect(30_000));
                long returned = System.nanoTime();
                browser.join();  // and so sent[0] is visible here
                assertEquals(List.of(), failures);
                assertTrue(returned - sent[0] < TimeUnit.SECONDS.toNanos(2), (returned - sent[0]) + " ns");
            } finally {
                browser.join();
                for (Socket socket : idle) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void signInThroughTheListener() throws Exception {
        try (Provider provider = new Provider(); LoopbackListener listener = new LoopbackListener(53682, "/callback")) {
            assertEquals(Provider.REDIRECT, listener.redirectUri());
            try (Config settings = provider.config().redirectUri(listener.redirectUri()).build();
                 Client client = new Client(settings); Config config = client.config();
                 AuthorizationRequest request = new AuthorizationRequest(config);
                 PendingAuthorization pending = request.build()) {
                listener.expectState(pending.state());
                Process browser = PythonProcess.builder(Provider.BROWSER,
                        "--follow", provider.username, provider.password, pending.url()).inheritIO().start();
                String redirect = listener.awaitRedirect(60_000);
                assertTrue(browser.waitFor(60, TimeUnit.SECONDS) && browser.exitValue() == 0, "browser.py followed the redirect");
                try (AuthorizationCallback callback = pending.handleCallback(redirect);
                     AuthState state = client.exchangeCode(callback)) {
                    assertTrue(state.isSignedIn());
                }
                assertThrows(ConsumedException.class, () -> listener.awaitRedirect(100));
            }
        }
    }

    @Test
    void listenerRules() throws Exception {
        try (LoopbackListener listener = new LoopbackListener(0, "/done")) {
            String uri = listener.redirectUri();
            assertTrue(uri.matches("http://127\\.0\\.0\\.1:\\d+/done"), uri);
            assertThrows(NetworkTimeoutException.class, () -> listener.awaitRedirect(50));
            // A timeout hands nothing out: the listener waits again (a host waits in slices to stay cancellable).
            Thread browser = new Thread(() -> {
                try {
                    assertEquals(404, get(uri.replace("/done", "/other")));
                    assertEquals(200, get(uri + "?code=c&state=s"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            browser.start();
            assertEquals(uri + "?code=c&state=s", listener.awaitRedirect(30_000));
            browser.join();
            assertThrows(ConsumedException.class, () -> listener.awaitRedirect(10));
        }
        assertThrows(IllegalArgumentException.class, () -> new LoopbackListener(65536, null));
        assertThrows(InvalidArgumentException.class, () -> new LoopbackListener(0, "no-slash"));
        try (LoopbackListener first = new LoopbackListener(0, null)) {
            assertTrue(first.redirectUri().endsWith("/callback"));
            int port = Integer.parseInt(first.redirectUri().replaceAll("^http://127\\.0\\.0\\.1:(\\d+)/.*$", "$1"));
            assertThrows(NetworkException.class, () -> new LoopbackListener(port, null), "the port is in use");
            assertThrows(IllegalArgumentException.class, () -> first.awaitRedirect(0));
        }
    }
}
