package no.telenor.id;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The providers of machine tokens (the client credentials grant, RFC 6749 §4.4) that {@link ResourceServerTest}
 * and {@link MachineTokenTest} share, started as Python subprocesses for a test class that registers this
 * extension ({@code @RegisterExtension static final MachineProviders providers = new MachineProviders();}):
 * django-oauth-toolkit (Tests/support/provider/oidc_provider.py: opaque access tokens, its machine-app client) and
 * glewlwyd (Tests/support/glewlwyd_provider.py serve: JWT access tokens, RFC 9068, and a machine client). Each
 * prints one JSON line when it is ready, from which the tests take their clients. A class may start more servers
 * of its own here ({@link #startAnother}); all of them are stopped after the class, also when one did not start.
 */
final class MachineProviders implements BeforeAllCallback, AfterAllCallback {
    private final List<Process> processes = new ArrayList<>();
    private String django;
    private String glewlwyd;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        django = startAnother("Tests/support/provider/oidc_provider.py");
        glewlwyd = startAnother("Tests/support/glewlwyd_provider.py", "serve");
    }

    /** Stops every server started here, the last started first. */
    @Override
    public void afterAll(ExtensionContext context) {
        List<Process> reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        PythonProcess.stopAll(reversed.toArray(new Process[0]));
        processes.clear();
    }

    /** Starts one more server ({@link PythonProcess#startServer}), stopped with the providers; its ready line. */
    String startAnother(String script, String... args) throws IOException {
        Process[] started = new Process[1];
        try {
            return PythonProcess.startServer(script, started, args);
        } finally {
            if (started[0] != null) {
                processes.add(started[0]);
            }
        }
    }

    /** django-oauth-toolkit's ready line: "issuer", and "clients": {..., "machine": {...}}. */
    String django() {
        return django;
    }

    /** glewlwyd's ready line: "issuer", "machine_client_id", "machine_client_secret", "machine_scope". */
    String glewlwyd() {
        return glewlwyd;
    }

    /** {@code member} of django-oauth-toolkit's client {@code client}: "clients": {..., "machine": {...}}. */
    String djangoClient(String client, String member) {
        return field(django, "\"" + client + "\": {", member);
    }

    /** django-oauth-toolkit's machine client: its issuer, client id and secret. */
    Config.Builder djangoMachine() {
        return Config.builder().issuer(field(django, "issuer")).clientId(djangoClient("machine", "client_id"))
                .clientSecret(djangoClient("machine", "client_secret"));
    }

    /** The first string member {@code name} of a server's JSON line ({@code json.dumps}' spacing). */
    static String field(String json, String name) {
        return field(json, "", name);
    }

    /** The first string member {@code name} of a server's JSON line after the first {@code from} in it. */
    static String field(String json, String from, String name) {
        int start = json.indexOf(from);
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\": \"([^\"]*)\"").matcher(json);
        if (start < 0 || !matcher.find(start)) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return matcher.group(1);
    }
}
