package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * TelenorID+ line authentication through the JNI bridge, as Tests/python/test_line_auth.py does through
 * ctypes: against the Aloha stand-in (Aloha is not public) and, for the sign-in carrying aloha_token,
 * the real provider. The socket hook is exercised the way an Android app uses it: allow, refuse, "not on
 * cellular", and a hook that throws.
 *
 * <p>The resolver's tests run against a second stand-in under the host name "aloha.test" (the system resolver
 * answers only for names, and libcurl asks the host's resolver only for them), listening on 127.0.0.2, the
 * name's address, and on 127.0.0.3, the address the tests' resolver answers. The name is in a private
 * /etc/hosts: build.sh starts this JVM inside {@code unshare -m} with one bind-mounted over /etc/hosts (a
 * mount namespace can't be entered from inside a running JVM). Without it (not root) they are skipped.
 */
class LineAuthenticatorTest {
    static final String NAMED_HOST = "aloha.test";
    private static Aloha aloha;
    private static Provider provider;
    private static Aloha named; // null when NAMED_HOST does not name 127.0.0.2 here

    @BeforeAll
    static void start() throws Exception {
        aloha = new Aloha();
        provider = new Provider();
        if (privateHosts()) {
            named = Aloha.named(NAMED_HOST, "127.0.0.2", "127.0.0.3");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        aloha.close();
        provider.close();
        if (named != null) {
            named.close();
        }
    }

    /**
     * Whether this JVM runs with build.sh's private /etc/hosts (it says so with the system property
     * telenorid.test.privateHosts), where aloha.test is 127.0.0.2 only; a wrong one fails the class.
     */
    private static boolean privateHosts() throws UnknownHostException {
        if (!NAMED_HOST.equals(System.getProperty("telenorid.test.privateHosts"))) {
            return false;
        }
        InetAddress[] addresses = InetAddress.getAllByName(NAMED_HOST);
        if (addresses.length != 1 || !addresses[0].getHostAddress().equals("127.0.0.2")) {
            throw new IllegalStateException("the private /etc/hosts gives " + NAMED_HOST + " " + Arrays.toString(addresses));
        }
        return true;
    }

    private static void assumeNamed() {
        Assumptions.assumeTrue(named != null, "no private /etc/hosts naming " + NAMED_HOST + " (build.sh starts this"
                + " class's JVM under unshare -m with one, as root): the tests under a host name are skipped");
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
    void resolverAnswersEveryLookupAndOnlyItsAddressIsReached() throws Exception {
        assumeNamed();
        try (Config config = named.config("jvm-resolved").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            List<String> asked = new CopyOnWriteArrayList<>();
            List<Thread> threads = new CopyOnWriteArrayList<>();
            lineAuth.setResolver((host, port) -> {
                asked.add(host + ":" + port);
                threads.add(Thread.currentThread());
                return HostResolver.Answer.of("127.0.0.3");
            });
            lineAuth.run();
            assertEquals(Collections.singletonMap("127.0.0.3", 3), named.reached("jvm-resolved"));
            // prepare (https), inject (plain http), session (https): every lookup, each on a fresh connection.
            assertEquals(Arrays.asList(NAMED_HOST + ":" + named.httpsPort, NAMED_HOST + ":" + named.httpPort,
                    NAMED_HOST + ":" + named.httpsPort), asked);
            assertTrue(threads.stream().allMatch(t -> t == Thread.currentThread()), "the resolver runs on the calling thread");
            assertTrue(lineAuth.validForSeconds() > 0);
            // Several addresses, an IPv4-mapped IPv6 one among them, and InetAddress answers.
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of("127.0.0.3", "::ffff:127.0.0.3"));
            lineAuth.run();
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of(InetAddress.getByName("127.0.0.3")));
            lineAuth.run();
            assertEquals(Collections.singletonMap("127.0.0.3", 9), named.reached("jvm-resolved"));
            // With the socket hook: both are called, the hook with every socket to the resolver's address.
            List<Integer> sockets = new CopyOnWriteArrayList<>();
            lineAuth.setSocketHook(fd -> {
                sockets.add(fd);
                return SocketHook.Verdict.ALLOW;
            });
            try (AuthorizationRequest request = new AuthorizationRequest(config)) {
                lineAuth.setMarginSeconds(300); // the kept session counts as expired: apply runs an exchange
                lineAuth.apply(request);
                assertTrue(Aloha.UUID4.matcher(alohaToken(request)).matches());
            }
            assertEquals(3, sockets.size(), sockets.toString());
            assertEquals(Collections.singletonMap("127.0.0.3", 12), named.reached("jvm-resolved"));
            // Removed: the system resolver (the private /etc/hosts) answers again.
            lineAuth.setResolver(null);
            asked.clear();
            lineAuth.run();
            assertEquals(Collections.emptyList(), asked, "a removed resolver is not called");
            Map<String, Integer> expected = new java.util.TreeMap<>();
            expected.put("127.0.0.2", 3);
            expected.put("127.0.0.3", 12);
            assertEquals(expected, named.reached("jvm-resolved"));
        }
    }

    @Test
    void withoutAResolverTheSystemResolverAnswers() throws Exception {
        assumeNamed();
        try (Config config = named.config("jvm-system").build(); LineAuthenticator lineAuth = new LineAuthenticator(config)) {
            lineAuth.run();
            assertEquals(Collections.singletonMap("127.0.0.2", 3), named.reached("jvm-system"));
        }
    }

    @Test
    void theResolversRefusals() throws Exception {
        assumeNamed();
        try (Config config = named.config("jvm-unresolved").build(); LineAuthenticator lineAuth = new LineAuthenticator(config);
             AuthorizationRequest request = new AuthorizationRequest(config)) {
            lineAuth.setResolver((host, port) -> HostResolver.Answer.NOT_CELLULAR);
            LineAuthUnavailableException wifi = assertThrows(LineAuthUnavailableException.class, () -> lineAuth.apply(request));
            assertEquals(Status.LINE_AUTH_UNAVAILABLE.code(), wifi.statusCode());
            assertEquals(null, alohaToken(request), "sign-in goes on without line authentication");
            for (HostResolver.Answer unresolved : Arrays.asList(null, HostResolver.Answer.UNRESOLVED)) {
                lineAuth.setResolver((host, port) -> unresolved);
                NetworkException refused = assertThrows(NetworkException.class, lineAuth::run);
                assertTrue(refused.getMessage().contains(NAMED_HOST), refused.getMessage());
                assertEquals(null, refused.getCause());
            }
            // Answers that are not lists of IP addresses (the library's check).
            for (String answer : Arrays.asList("aloha.test", "127.0.0.3:443", "[::1]", "1.2.3.4;x", "1::2::3")) {
                lineAuth.setResolver((host, port) -> HostResolver.Answer.of(answer));
                assertThrows(InvalidArgumentException.class, lineAuth::run, answer);
            }
            // What the resolver throws refuses the name and becomes the exception's cause.
            java.io.IOException noNetwork = new java.io.IOException("no network handle");
            lineAuth.setResolver((host, port) -> {
                throw noNetwork;
            });
            NetworkException thrown = assertThrows(NetworkException.class, lineAuth::run);
            assertSame(noNetwork, thrown.getCause());
            // An answer Java refuses to build (17 addresses) is such a throw.
            String[] many = new String[HostResolver.Answer.MAX_ADDRESSES + 1];
            Arrays.fill(many, "127.0.0.3");
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of(many));
            thrown = assertThrows(NetworkException.class, lineAuth::run);
            assertInstanceOf(IllegalArgumentException.class, thrown.getCause());
            // Changing the resolver from inside it would wait for itself: refused, not a deadlock.
            lineAuth.setResolver((host, port) -> {
                lineAuth.setResolver(null);
                return HostResolver.Answer.of("127.0.0.3");
            });
            thrown = assertThrows(NetworkException.class, lineAuth::run);
            assertInstanceOf(IllegalStateException.class, thrown.getCause());
            assertEquals(Collections.emptyMap(), named.reached("jvm-unresolved"), "no request went out");
            // A later success carries nothing over.
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of("127.0.0.3"));
            lineAuth.run();
            assertEquals(Collections.singletonMap("127.0.0.3", 3), named.reached("jvm-unresolved"));
        }
    }

    @Test
    void resolverAnswersAreCheckedBeforeTheyReachTheLibrary() throws Exception {
        assertEquals("127.0.0.3,::1", HostResolver.Answer.of("127.0.0.3", "::1").toString());
        assertEquals("127.0.0.3,::1", HostResolver.Answer.of(Arrays.asList("127.0.0.3", "::1")).toString());
        // An IPv6 address's zone is dropped (the library takes none); IPv4 addresses as they are.
        byte[] linkLocal = new byte[16];
        linkLocal[0] = (byte) 0xfe;
        linkLocal[1] = (byte) 0x80;
        linkLocal[15] = 1;
        InetAddress scoped = java.net.Inet6Address.getByAddress(null, linkLocal, 1);
        assertTrue(scoped.getHostAddress().contains("%"), scoped.getHostAddress());
        assertEquals("fe80:0:0:0:0:0:0:1,10.0.0.1",
                HostResolver.Answer.of(scoped, InetAddress.getByName("10.0.0.1")).toString());
        assertEquals("NOT_CELLULAR", HostResolver.Answer.NOT_CELLULAR.toString());
        assertThrows(IllegalArgumentException.class, () -> HostResolver.Answer.of(new String[0]));
        assertThrows(IllegalArgumentException.class, () -> HostResolver.Answer.of(""));
        for (String wrong : Arrays.asList("1.2.3.4\u0000", "1.2.3.4 5.6.7.8", "1.2.3.4,5.6.7.8", "\u00e5.example", "1.2.3.4\n")) {
            assertThrows(IllegalArgumentException.class, () -> HostResolver.Answer.of(wrong), wrong);
        }
        String[] sixteen = new String[HostResolver.Answer.MAX_ADDRESSES];
        Arrays.fill(sixteen, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"); // 16 x 39 + 15 commas: 639 bytes
        assertEquals(639, HostResolver.Answer.of(sixteen).toString().length());
        Arrays.fill(sixteen, String.join("", Collections.nCopies(64, "1"))); // 16 x 64 + 15: 1039 bytes
        assertThrows(IllegalArgumentException.class, () -> HostResolver.Answer.of(sixteen));
        assertThrows(NullPointerException.class, () -> HostResolver.Answer.of((String) null));
        assertThrows(NullPointerException.class, () -> HostResolver.Answer.of((List<String>) null));
        assertThrows(NullPointerException.class, () -> HostResolver.Answer.of((InetAddress) null));
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
    void resolverAndHookAreFreedWithTheLineAuthenticator() throws Exception {
        // No exchange: the resolver's global reference is released by close() and by replacement (-Xcheck:jni
        // and the bridge's frees), not only by the cleaner.
        try (Config config = aloha.config("jvm-freed").build()) {
            LineAuthenticator lineAuth = new LineAuthenticator(config);
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of("127.0.0.1"));
            lineAuth.setResolver((host, port) -> HostResolver.Answer.of("127.0.0.1"));
            lineAuth.setSocketHook(fd -> SocketHook.Verdict.ALLOW);
            // The stand-in's URL is an IP literal: the resolver is not asked.
            List<String> asked = new CopyOnWriteArrayList<>();
            lineAuth.setResolver((host, port) -> {
                asked.add(host);
                return HostResolver.Answer.UNRESOLVED;
            });
            lineAuth.run();
            assertEquals(Collections.emptyList(), asked, "an IP address literal is not looked up");
            lineAuth.close();
            assertThrows(IllegalStateException.class, () -> lineAuth.setResolver(null));
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
