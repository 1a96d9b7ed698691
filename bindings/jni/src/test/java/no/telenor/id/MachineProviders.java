package no.telenor.id;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The providers of machine tokens (the client credentials grant, RFC 6749 §4.4) that {@link ResourceServerTest}
 * and {@link MachineTokenTest} share, started as Python subprocesses: django-oauth-toolkit
 * (Tests/support/provider/oidc_provider.py: opaque access tokens, its machine-app client) and glewlwyd
 * (Tests/support/glewlwyd_provider.py serve: JWT access tokens, RFC 9068, and a machine client). Each prints one
 * JSON line when it is ready, from which the tests take their clients; a test class may start more servers of its
 * own here, and {@link #stop} ends them all.
 */
final class MachineProviders {
    /** django-oauth-toolkit's ready line: "issuer", and "clients": {..., "machine": {...}}. */
    final String django;
    /** glewlwyd's ready line: "issuer", "machine_client_id", "machine_client_secret", "machine_scope". */
    final String glewlwyd;
    private final List<Process> processes;

    private MachineProviders(String django, String glewlwyd, List<Process> processes) {
        this.django = django;
        this.glewlwyd = glewlwyd;
        this.processes = processes;
    }

    /** Starts both providers; when one does not start, the other is stopped before the error goes on. */
    static MachineProviders start() throws IOException {
        List<Process> processes = new ArrayList<>();
        try {
            String django = startServer(processes, "Tests/support/provider/oidc_provider.py");
            String glewlwyd = startServer(processes, "Tests/support/glewlwyd_provider.py", "serve");
            return new MachineProviders(django, glewlwyd, processes);
        } catch (IOException | RuntimeException e) {
            PythonProcess.stopAll(processes.toArray(new Process[0]));
            throw e;
        }
    }

    /** Starts one more server ({@link PythonProcess#startServer}), stopped with the providers; its ready line. */
    String startAnother(String script, String... args) throws IOException {
        return startServer(processes, script, args);
    }

    private static String startServer(List<Process> processes, String script, String... args) throws IOException {
        Process[] started = new Process[1];
        try {
            return PythonProcess.startServer(script, started, args);
        } finally {
            if (started[0] != null) {
                processes.add(started[0]);
            }
        }
    }

    /** Stops every server started here, the last started first. */
    void stop() {
        List<Process> reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        PythonProcess.stopAll(reversed.toArray(new Process[0]));
        processes.clear();
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
