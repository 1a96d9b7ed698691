package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
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
        try {
            return connection.getResponseCode();
        } finally {
            connection.disconnect();
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
                Process browser = new ProcessBuilder("python3", Provider.ROOT.resolve("Tests/support/provider/browser.py").toString(),
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
