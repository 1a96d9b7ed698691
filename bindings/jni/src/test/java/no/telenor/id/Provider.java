package no.telenor.id;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real OpenID provider of the tests (Tests/support/provider/oidc_provider.py: django-oauth-toolkit on
 * 127.0.0.1) in a subprocess, and the user played by Tests/support/provider/browser.py's command line.
 */
final class Provider implements AutoCloseable {
    static final String REDIRECT = "http://127.0.0.1:53682/callback";
    static final Path ROOT = Paths.get(System.getProperty("user.dir")).toAbsolutePath(); // build.sh runs in the repository
    static final String BROWSER = "Tests/support/provider/browser.py";

    final String issuer;
    final String clientId;
    final String username;
    final String password;
    /** The confidential client (a backend with a secret), registered with REDIRECT and merchantapp://redirect-uri. */
    final String backendClientId;
    final String backendSecret;
    private final Process process;

    Provider() throws IOException {
        // It prints one JSON line when it is ready; the test reads the few fields it needs.
        Process[] started = new Process[1];
        String line = PythonProcess.startServer("Tests/support/provider/oidc_provider.py", started);
        process = started[0];
        issuer = field(line, "issuer");
        clientId = field(line, "client_id");
        username = field(line, "username");
        password = field(line, "password");
        Matcher backend = Pattern.compile("\"confidential\": \\{\"client_id\": \"([^\"]*)\", \"client_secret\": \"([^\"]*)\"")
                .matcher(line);
        if (!backend.find()) {
            throw new IllegalStateException("no confidential client in " + line);
        }
        backendClientId = backend.group(1);
        backendSecret = backend.group(2);
    }

    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\": \"([^\"]*)\"").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }

    Config.Builder config() {
        return Config.builder().issuer(issuer).clientId(clientId).redirectUri(REDIRECT)
                .scope("openid profile email").revocationEndpoint(issuer + "/revoke_token/");
    }

    /** Signs in and consents at {@code authorizationUrl}; the redirect the browser ends on. */
    String login(String authorizationUrl, boolean deny) throws IOException, InterruptedException {
        ProcessBuilder builder = deny
                ? PythonProcess.builder(BROWSER, authorizationUrl, username, password, "--deny")
                : PythonProcess.builder(BROWSER, authorizationUrl, username, password);
        Process browser = builder.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String redirect = new BufferedReader(new InputStreamReader(browser.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (!browser.waitFor(60, TimeUnit.SECONDS) || browser.exitValue() != 0 || redirect == null) {
            browser.destroy();
            throw new IOException("browser.py failed");
        }
        return redirect;
    }

    /** The authorization endpoint, where a browser opened at {@link #issuer} would go. */
    String authorizationEndpoint() {
        return issuer + "/authorize/";
    }

    /** host:port of the issuer, as the identity-provider app flow names it. */
    String loginHost() {
        return java.net.URI.create(issuer).getRawAuthority();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
