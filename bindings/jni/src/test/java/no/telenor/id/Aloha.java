package no.telenor.id;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
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
 * takes a mode of its own and reads that mode's counters from {@code /_stats}.
 */
final class Aloha implements AutoCloseable {
    static final Pattern UUID4 = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    final String base;
    final String caFile;
    private final Process process;

    Aloha() throws IOException {
        Process[] started = new Process[1];
        String line = PythonProcess.startServer("Tests/support/aloha_server.py", started);
        process = started[0];
        base = field(line, "base");
        caFile = field(line, "ca_file");
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
        String json;
        try (InputStream body = connection.getInputStream()) {
            json = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher entry = Pattern.compile("\"" + Pattern.quote(mode)
                + "\": \\{\"prepare\": (\\d+), \"inject\": (\\d+), \"session\": (\\d+)").matcher(json);
        if (!entry.find()) {
            return new int[] {0, 0, 0};
        }
        return new int[] {Integer.parseInt(entry.group(1)), Integer.parseInt(entry.group(2)), Integer.parseInt(entry.group(3))};
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
