package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TelenorID+ line authentication through the JNI bridge, as Tests/python/test_line_auth.py does through
 * ctypes: against the Aloha stand-in (Aloha is not public) and, for the sign-in carrying aloha_token,
 * the real provider. The socket hook is exercised the way an Android app uses it: allow, refuse, "not on
 * cellular", and a hook that throws.
 */
class LineAuthenticatorTest {
    private static Aloha aloha;
    private static Provider provider;

    @BeforeAll
    static void start() throws Exception {
        aloha = new Aloha();
        provider = new Provider();
    }

    @AfterAll
    static void stop() throws Exception {
        aloha.close();
        provider.close();
    }

    private static String alohaToken(AuthorizationRequest request) {
        try (PendingAuthorization pending = request.build()) {
            return TestSupport.query(pending.url()).get("aloha_token");
        }
    }

    @Test
    void signInAtTheRealProviderCarriesAlohaToken() throws Exception {
        Config settings = provider.config().alohaUrl(aloha.base + "/jvm-signin").caFile(aloha.caFile).build();
        try (Client client = new Client(settings); Config config = client.config();
             LineAuthenticator lineAuth = new LineAuthenticator(config);
             AuthorizationRequest request = new AuthorizationRequest(config)) {
            lineAuth.apply(request);
            try (PendingAuthorization pending = request.build()) {
                String token = TestSupport.query(pending.url()).get("aloha_token");
                assertTrue(Aloha.UUID4.matcher(token).matches(), token);
                assertArrayEquals(new int[] {1, 1, 1}, aloha.stats("jvm-signin"));
                try (AuthorizationCallback callback = pending.handleCallback(provider.login(pending.url(), false));
                     AuthState state = client.exchangeCode(callback)) {
                    assertTrue(state.isSignedIn());
                }
            }
        }
    }

    @Test
    void marginAtItsBoundaryMakesAFreshSession() throws Exception {
        try (Config config = aloha.config("jvm-margin").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            lineAuth.run(); // exp 300
            long validFor = lineAuth.validForSeconds();
            assertTrue(validFor > 260 && validFor <= 270, "the default margin, 30 s: " + validFor);
            lineAuth.setMarginSeconds(297);
            validFor = lineAuth.validForSeconds();
            assertTrue(validFor >= 1 && validFor <= 3, "valid for " + validFor);
            lineAuth.setMarginSeconds(300); // 300 s left is not more than the margin: expired
            assertEquals(0, lineAuth.validForSeconds());
            try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                lineAuth.apply(request);
            }
            assertEquals(2, aloha.stats("jvm-margin")[0], "a fresh exchange");
            lineAuth.setMarginSeconds(0);
            try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                lineAuth.apply(request);
            }
            assertEquals(2, aloha.stats("jvm-margin")[0], "the session reused");
            assertThrows(InvalidArgumentException.class, () -> lineAuth.setMarginSeconds(-1));
            assertThrows(InvalidArgumentException.class, () -> lineAuth.setMarginSeconds(86_401));
        }
    }

    @Test
    void backgroundSessionIsReusedAtSignIn() throws Exception {
        try (Config config = aloha.config("jvm-reuse").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            assertEquals(0, lineAuth.validForSeconds());
            Thread background = new Thread(lineAuth::run, "line-auth");
            background.start();
            background.join();
            long validFor = lineAuth.validForSeconds();
            assertTrue(validFor > 250 && validFor <= 300, "valid for " + validFor);
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                    lineAuth.apply(request);
                    tokens.add(alohaToken(request));
                }
            }
            assertEquals(1, tokens.stream().distinct().count(), tokens.toString());
            assertEquals(1, aloha.stats("jvm-reuse")[0], "one prepare call");
        }
    }

    @Test
    void manyThreadsShareOneLineAuthenticator() throws Exception {
        try (Config config = aloha.config("jvm-threads").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<String>> tokens = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    tokens.add(pool.submit(() -> {
                        try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                            lineAuth.apply(request);
                            return alohaToken(request);
                        }
                    }));
                }
                for (Future<String> token : tokens) {
                    assertTrue(Aloha.UUID4.matcher(token.get()).matches());
                }
            } finally {
                pool.shutdown();
            }
            assertTrue(lineAuth.validForSeconds() > 0);
        }
    }

    @Test
    void socketHookSeesEverySocketOnTheExchangeThread() throws Exception {
        try (Config config = aloha.config("jvm-hooked").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            List<Thread> threads = new CopyOnWriteArrayList<>();
            lineAuth.setSocketHook(fd -> {
                try {
                    // Linux names a socket's descriptor "socket:[inode]".
                    seen.add(Files.readSymbolicLink(Paths.get("/proc/self/fd/" + fd)).toString());
                } catch (java.io.IOException e) {
                    seen.add(e.toString());
                }
                threads.add(Thread.currentThread());
                return SocketHook.Verdict.ALLOW;
            });
            lineAuth.run();
            lineAuth.run();
            // prepare, inject and session each on a fresh connection: three sockets per exchange.
            assertEquals(6, seen.size(), seen.toString());
            assertTrue(seen.stream().allMatch(link -> link.startsWith("socket:")), seen.toString());
            assertTrue(threads.stream().allMatch(t -> t == Thread.currentThread()), "the hook runs on the calling thread");
            assertEquals(2, aloha.stats("jvm-hooked")[2]);
            lineAuth.setSocketHook(null);
            lineAuth.run();
            assertEquals(6, seen.size(), "a removed hook is not called");
        }
    }

    @Test
    void socketHookCanRefuse() throws Exception {
        try (Config config = aloha.config("jvm-refused").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            lineAuth.setSocketHook(fd -> SocketHook.Verdict.REFUSE);
            NetworkException refused = assertThrows(NetworkException.class, lineAuth::run);
            assertTrue(refused.getMessage().contains("socket hook refused"), refused.getMessage());
            lineAuth.setSocketHook(fd -> null); // no verdict refuses too
            assertThrows(NetworkException.class, lineAuth::run);
            assertEquals(0, aloha.stats("jvm-refused")[0]);
        }
    }

    @Test
    void notOnCellularIsADistinctOutcome() throws Exception {
        try (Config config = aloha.config("jvm-wifi").build(); LineAuthenticator lineAuth = new LineAuthenticator(config);
             AuthorizationRequest request = new AuthorizationRequest(config)) {
            lineAuth.setSocketHook(fd -> SocketHook.Verdict.NOT_CELLULAR);
            LineAuthUnavailableException wifi = assertThrows(LineAuthUnavailableException.class, () -> lineAuth.apply(request));
            assertEquals(Status.LINE_AUTH_UNAVAILABLE.code(), wifi.statusCode());
            assertTrue(wifi.getMessage().contains("cellular"), wifi.getMessage());
            assertEquals(null, alohaToken(request), "sign-in goes on without line authentication");
            // The user turned Wi-Fi off: the hook lets sockets through and line authentication works.
            lineAuth.setSocketHook(fd -> SocketHook.Verdict.ALLOW);
            lineAuth.apply(request);
            assertTrue(Aloha.UUID4.matcher(alohaToken(request)).matches());
        }
    }

    @Test
    void whatTheHookThrowsRefusesAndTravelsWithTheError() throws Exception {
        try (Config config = aloha.config("jvm-throws").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            IllegalStateException bug = new IllegalStateException("no ConnectivityManager");
            lineAuth.setSocketHook(fd -> {
                throw bug;
            });
            NetworkException refused = assertThrows(NetworkException.class, lineAuth::run);
            assertSame(bug, refused.getSuppressed()[0]);
            // Changing the hook from inside the hook would wait for itself: refused, not a deadlock.
            lineAuth.setSocketHook(fd -> {
                lineAuth.setSocketHook(null);
                return SocketHook.Verdict.ALLOW;
            });
            refused = assertThrows(NetworkException.class, lineAuth::run);
            assertInstanceOf(IllegalStateException.class, refused.getSuppressed()[0]);
            // A later success carries nothing over.
            lineAuth.setSocketHook(fd -> SocketHook.Verdict.ALLOW);
            lineAuth.run();
        }
    }

    @Test
    void failuresLeaveTheRequestWithoutAlohaToken() throws Exception {
        Map<String, Class<? extends TelenoridException>> modes = new java.util.LinkedHashMap<>();
        modes.put("malformed_prepare", InvalidResponseException.class);
        modes.put("missing_uuid", InvalidResponseException.class);
        modes.put("expired", InvalidResponseException.class);
        modes.put("two_redirects", InvalidResponseException.class);
        modes.put("redirect_http", InsecureException.class);
        modes.put("redirect_other_host", InsecureException.class);
        modes.put("status_500", TemporarilyUnavailableException.class);
        for (Map.Entry<String, Class<? extends TelenoridException>> mode : modes.entrySet()) {
            try (Config config = aloha.config(mode.getKey()).build(); LineAuthenticator lineAuth = new LineAuthenticator(config);
                 AuthorizationRequest request = new AuthorizationRequest(config)) {
                TelenoridException failed = assertThrows(mode.getValue(), () -> lineAuth.apply(request), mode.getKey());
                if (mode.getKey().equals("status_500")) {
                    assertEquals(500, failed.httpStatus());
                }
                assertEquals(0, lineAuth.validForSeconds());
                assertEquals(null, alohaToken(request), mode.getKey());
            }
        }
        try (Config config = aloha.config("hang").timeoutMillis(500).build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            assertThrows(NetworkTimeoutException.class, lineAuth::run);
        }
        try (Config config = TestSupport.baseConfig().alohaUrl(aloha.base + "/jvm-untrusted").build();
             LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            assertThrows(TlsException.class, lineAuth::run, "the stand-in's CA is not in the system trust store");
        }
    }

    @Test
    void configuration() {
        try (Config none = TestSupport.config()) {
            assertThrows(LineAuthUnavailableException.class, () -> new LineAuthenticator(none));
        }
        assertThrows(InsecureException.class, () -> TestSupport.baseConfig().alohaUrl("http://aloha.example").build());
        try (Config config = aloha.config("ok").build(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            assertEquals(aloha.base + "/ok", config.get(Config.Key.ALOHA_URL));
            LineAuthenticator lineAuth = new LineAuthenticator(config);
            request.set(AuthorizationRequest.Parameter.ALOHA_TOKEN, "mine");
            assertThrows(ParameterConflictException.class, () -> lineAuth.apply(request));
            assertEquals("mine", alohaToken(request));
            lineAuth.close();
            assertThrows(IllegalStateException.class, lineAuth::run);
            assertFalse(request.isClosed());
            lineAuth.close(); // idempotent
        }
    }
}
