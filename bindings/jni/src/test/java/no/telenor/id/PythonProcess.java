package no.telenor.id;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test helpers written in Python (providers, the Aloha stand-in, the headless browser), started with the
 * project's interpreter: {@code $PYTHON} (the Makefile exports the venv's, which has django-oauth-toolkit),
 * else the first {@code python3} on {@code PATH} (the Makefile puts the venv's first). A server that ends
 * before it prints its ready line is reported with the interpreter and its first error line.
 */
final class PythonProcess {
    private PythonProcess() {
    }

    static String interpreter() {
        String python = System.getenv("PYTHON");
        return python == null || python.isEmpty() ? "python3" : python;
    }

    static ProcessBuilder builder(String script, String... args) {
        List<String> command = new ArrayList<>();
        command.add(interpreter());
        command.add(Provider.ROOT.resolve(script).toString());
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command);
    }

    /**
     * Starts a server ({@code script} with {@code args}) that prints one line when it is ready and returns that
     * line; its standard error goes on to this process's, with the first lines kept for the report when it fails
     * to start.
     */
    static String startServer(String script, Process[] started, String... args) throws IOException {
        Process process = builder(script, args).start();
        started[0] = process;
        List<String> errors = new ArrayList<>();
        Thread relay = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = err.readLine()) != null; ) {
                    synchronized (errors) {
                        if (errors.size() < 200) {
                            errors.add(line);
                        }
                    }
                    System.err.println(line);
                }
            } catch (IOException ignored) {
                // The process ended.
            }
        }, "stderr of " + script);
        relay.setDaemon(true);
        relay.start();
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (line == null) {
            process.destroy();
            try {
                relay.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException(script + " did not start with " + interpreter() + ": " + firstError(errors));
        }
        return line;
    }

    /**
     * Stops servers started by {@link #startServer} (null ones skipped): SIGTERM, then up to 15 s each to end (a
     * provider script such as glewlwyd_provider.py stops its server and removes its directory on SIGTERM).
     */
    static void stopAll(Process... processes) {
        for (Process process : processes) {
            if (process != null) {
                process.destroy();
                try {
                    process.waitFor(15, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** The line naming the error (a traceback's last line, "ModuleNotFoundError: ..."), else the first line. */
    static String firstError(List<String> lines) {
        synchronized (lines) {
            for (String line : lines) {
                if (line.matches("^[A-Za-z_.]*(Error|Exception)\\b.*")) {
                    return line;
                }
            }
            return lines.isEmpty() ? "(nothing on standard error)" : lines.get(0);
        }
    }
}
