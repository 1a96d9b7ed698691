package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Loading in a fresh JVM: by absolute path from the {@code telenorid.jni.library} property, and the
 * failure without it. build.sh passes the bridge's path in {@code telenorid.test.bridge} and the
 * class path (main and test classes) in {@code telenorid.test.classpath}.
 */
class LoadingTest {
    /** Run in the child JVM: prints the library version. */
    public static final class Main {
        public static void main(String[] args) {
            System.out.println("version=" + Telenorid.version());
        }
    }

    private static String[] run(String... jvmOptions) throws IOException, InterruptedException {
        assumeTrue(System.getProperty("telenorid.test.classpath") != null, "telenorid.test.classpath is not set");
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.addAll(Arrays.asList(jvmOptions));
        command.add("-cp");
        command.add(System.getProperty("telenorid.test.classpath"));
        command.add(Main.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), output};
    }

    @Test
    void loadsFromThePathInTheSystemProperty() throws Exception {
        String bridge = System.getProperty("telenorid.test.bridge");
        assumeTrue(bridge != null, "telenorid.test.bridge is not set");
        String[] result = run("-D" + Telenorid.LIBRARY_PATH_PROPERTY + "=" + bridge, "-Djava.library.path=/nonexistent");
        assertEquals("0", result[0], result[1]);
        Telenorid.load();
        String expected = "version=" + Telenorid.formatVersion(Telenorid.headerVersionNumber());
        assertTrue(result[1].contains(expected), result[1]);
    }

    @Test
    void failsWithUnsatisfiedLinkErrorWhenTheBridgeIsNotFound() throws Exception {
        String[] result = run("-Djava.library.path=/nonexistent");
        assertNotEquals("0", result[0], result[1]);
        assertTrue(result[1].contains("UnsatisfiedLinkError") && result[1].contains("telenorid_jni"), result[1]);
        result = run("-D" + Telenorid.LIBRARY_PATH_PROPERTY + "=/nonexistent/libtelenorid_jni.so");
        assertNotEquals("0", result[0], result[1]);
        assertTrue(result[1].contains("UnsatisfiedLinkError"), result[1]);
    }
}
