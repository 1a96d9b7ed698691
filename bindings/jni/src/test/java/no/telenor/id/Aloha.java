package no.telenor.id;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The stand-in for Aloha (Tests/support/aloha_server.py, which Tests/python/test_line_auth.py and
 * Tests/c/test_line_auth.c use too) in a subprocess: https under a throw-away test CA plus the plain-http
 * inject port. The first path segment of a base URL picks its behaviour (see the script), so each test
 * takes a mode of its own and reads that mode's counters from {@code /_stats}. {@link #named} starts it under
 * a host name, listening on several loopback addresses, for the resolver's tests.
 */
final class Aloha implements AutoCloseable {
    static final Pattern UUID4 = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    final String base;
    final String caFile;
    final int httpsPort;
    final int httpPort;
    private final Process process;

    Aloha() throws IOException {
        this(new String[0]);
    }

    private Aloha(String... args) throws IOException {
        Process[] started = new Process[1];
        String line = PythonProcess.startServer("Tests/support/aloha_server.py", started, args);
        process = started[0];
        base = field(line, "base");
        caFile = field(line, "ca_file");
        httpsPort = number(line, "https_port");
        httpPort = number(line, "http_port");
    }

    /**
     * The stand-in under {@code host}, listening on each of {@code addresses} (the same two ports on each): its
     * URLs name the host and its certificate covers it. The name must resolve (a private /etc/hosts).
     */
    static Aloha named(String host, String... addresses) throws IOException {
        List<String> args = new ArrayList<>(Arrays.asList("--host", host));
        for (String address : addresses) {
            args.add("--address");
            args.add(address);
        }
        return new Aloha(args.toArray(new String[0]));
    }

    private static int number(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\": (\\d+)").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return Integer.parseInt(matcher.group(1));
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\": \"([^\"]*)\"").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }

    /** A configuration whose Aloha is this stand-in in {@code mode}, trusting its CA. */
    Config.Builder config(String mode) {
        return TestSupport.baseConfig().alohaUrl(base + "/" + mode).caFile(caFile);
    }

    /** How many prepare calls, inject calls and sessions {@code mode} has seen: {prepare, inject, session}. */
    int[] stats(String mode) throws Exception {
        String json = statsJson();
        Matcher entry = Pattern.compile("\"" + Pattern.quote(mode)
                + "\": \\{\"prepare\": (\\d+), \"inject\": (\\d+), \"session\": (\\d+)").matcher(json);
        if (!entry.find()) {
            return new int[] {0, 0, 0};
        }
        return new int[] {Integer.parseInt(entry.group(1)), Integer.parseInt(entry.group(2)), Integer.parseInt(entry.group(3))};
    }

    /** How many requests of {@code mode} arrived on each local address, e.g. {"127.0.0.3": 3}. */
    Map<String, Integer> reached(String mode) throws Exception {
        Map<String, Integer> reached = new TreeMap<>();
        Matcher entry = Pattern.compile("\"" + Pattern.quote(mode) + "\": \\{[^{}]*\"addresses\": \\{([^{}]*)\\}")
                .matcher(statsJson());
        if (entry.find()) {
            Matcher address = Pattern.compile("\"([^\"]+)\": (\\d+)").matcher(entry.group(1));
            while (address.find()) {
                reached.put(address.group(1), Integer.parseInt(address.group(2)));
            }
        }
        return reached;
    }

    private String statsJson() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream pem = Files.newInputStream(Paths.get(caFile))) {
            trust.setCertificateEntry("aloha-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, factory.getTrustManagers(), null);
        HttpsURLConnection connection = (HttpsURLConnection) new URL(base + "/_stats").openConnection();
        connection.setSSLSocketFactory(tls.getSocketFactory());
        try (InputStream body = connection.getInputStream()) {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() throws IOException {
        process.getOutputStream().close(); // the script serves until its stdin closes
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
        }
    }
}
