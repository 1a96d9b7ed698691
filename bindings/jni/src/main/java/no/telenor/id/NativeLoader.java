package no.telenor.id;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds and loads the JNI bridge, in this order:
 * <ol>
 *   <li>the absolute path in the system property {@value Telenorid#LIBRARY_PATH_PROPERTY}, when set;
 *   <li>{@code System.loadLibrary("telenorid_jni")}: an APK's native library directory on Android,
 *       {@code java.library.path} on a desktop JVM (an explicit one wins over the jar's copy);
 *   <li>the natives of this platform on the class path, from the natives jar beside the API jar
 *       ({@code telenorid-<version>-linux-x86_64.jar}, the classifier {@code linux-x86_64} of
 *       {@code no.telenor.id:telenorid}) under {@value #RESOURCES}{@code <platform>/}: extracted once per
 *       process into a new directory only this user can open (mode 0700), each file checked against the
 *       SHA-256 recorded when the jar was built, then loaded by absolute path, libtelenorid first so the
 *       bridge's dependency on it is already met. The files are deleted once loaded (the mappings stay), so
 *       nothing is left behind.
 * </ol>
 * This is how sqlite-jdbc and netty-tcnative ship native code in a jar. When none of them has the bridge,
 * the {@link UnsatisfiedLinkError} names every place tried and the natives jar to add (as llvmlite's and
 * wasmtime-py's loaders list what they tried).
 */
final class NativeLoader {
    /** Where a platform jar keeps its natives: {@code <platform>/natives.sha256} and the files it lists. */
    static final String RESOURCES = "/no/telenor/id/native/";

    private NativeLoader() {
    }

    static void load() {
        String path = null;
        try {
            path = System.getProperty(Telenorid.LIBRARY_PATH_PROPERTY);
        } catch (SecurityException ignored) {
            // No access to the property: look elsewhere.
        }
        if (path != null && !path.isEmpty()) {
            try {
                System.load(path);
            } catch (UnsatisfiedLinkError failed) {
                throw withCause(new UnsatisfiedLinkError("telenorid_jni: the bridge the system property "
                        + Telenorid.LIBRARY_PATH_PROPERTY + " names did not load: " + failed.getMessage()), failed);
            }
            return;
        }
        try {
            System.loadLibrary(Telenorid.LIBRARY_NAME);
        } catch (UnsatisfiedLinkError notOnLibraryPath) {
            String platform = platform();
            if (platform == null || NativeLoader.class.getResource(RESOURCES + platform + "/natives.sha256") == null) {
                throw withCause(new UnsatisfiedLinkError(notFound(platform)), notOnLibraryPath);
            }
            try {
                loadBundled(platform);
            } catch (IOException | RuntimeException | UnsatisfiedLinkError bundled) {
                throw withCause(new UnsatisfiedLinkError("telenorid_jni: not on java.library.path ("
                        + notOnLibraryPath.getMessage() + "), and the jar's " + platform + " natives did not load: "
                        + bundled), bundled);
            }
        }
    }

    /**
     * What a program without the bridge is told: each file {@code System.loadLibrary} looked for (one per
     * {@code java.library.path} entry), the resource of this platform's natives jar it did not find on the
     * class path, and what to add.
     */
    static String notFound(String platform) {
        String file = System.mapLibraryName(Telenorid.LIBRARY_NAME);
        StringBuilder message = new StringBuilder("telenorid_jni: the JNI bridge ").append(file)
                .append(" was not found. Tried:");
        String libraryPath = System.getProperty("java.library.path", "");
        for (String entry : libraryPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                message.append("\n  ").append(new File(entry, file).getPath()).append(" (java.library.path)");
            }
        }
        if (libraryPath.isEmpty()) {
            message.append("\n  java.library.path, which is empty");
        }
        if (platform == null) {
            message.append("\nNo natives jar is built for ").append(System.getProperty("os.name")).append(' ')
                    .append(System.getProperty("os.arch")).append(": build libtelenorid and the bridge for it")
                    .append(" (bindings/jni/README.md) and name the bridge with -D")
                    .append(Telenorid.LIBRARY_PATH_PROPERTY).append("=/path/to/").append(file).append('.');
            return message.toString();
        }
        // The API jar's version (its manifest's Implementation-Version); unknown for classes outside that jar.
        Package api = NativeLoader.class.getPackage();
        String version = api == null ? null : api.getImplementationVersion();
        if (version == null) {
            version = "<version>";
        }
        message.append("\n  ").append(RESOURCES.substring(1)).append(platform)
                .append("/natives.sha256 on the class path (the natives jar of ").append(platform).append(')')
                .append("\nAdd the natives jar of this platform to the class path, beside the API jar: telenorid-")
                .append(version).append('-').append(platform).append(".jar (Maven: no.telenor.id:telenorid:")
                .append(version).append(':').append(platform).append("), or name the bridge with -D")
                .append(Telenorid.LIBRARY_PATH_PROPERTY).append("=/path/to/").append(file).append('.');
        return message.toString();
    }

    private static UnsatisfiedLinkError withCause(UnsatisfiedLinkError error, Throwable cause) {
        error.initCause(cause);
        return error;
    }

    /** {@code linux-x86_64} and the like, or null for a platform no jar is built for. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.equals("linux")) {
            return null;
        }
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            return "linux-x86_64";
        }
        if (arch.equals("aarch64")) {
            return "linux-aarch64";
        }
        return null;
    }

    private static void loadBundled(String platform) throws IOException {
        String base = RESOURCES + platform + "/";
        List<String[]> natives = digests(base);
        Path directory = Files.createTempDirectory("telenorid-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        List<Path> written = new ArrayList<>();
        try {
            for (String[] entry : natives) {
                Path file = directory.resolve(entry[1]);
                written.add(file);
                extract(base + entry[1], file, entry[0]);
            }
            // In the order natives.sha256 lists them: libtelenorid before the bridge that needs it.
            for (Path file : written) {
                System.load(file.toAbsolutePath().toString());
            }
        } finally {
            written.add(directory);
            for (Path file : written) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // Left in a directory only this user can open; the failure that matters is the load's.
                }
            }
        }
    }

    /** The lines of natives.sha256: {@code <hex digest>  <file name>}, in load order. */
    private static List<String[]> digests(String base) throws IOException {
        List<String[]> entries = new ArrayList<>();
        try (InputStream in = resource(base + "natives.sha256");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] parts = line.split(" +", 2);
                if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}") || !parts[1].matches("lib[A-Za-z0-9_.]+\\.so[0-9.]*")) {
                    throw new IOException("natives.sha256: a malformed line: " + line);
                }
                entries.add(parts);
            }
        }
        if (entries.isEmpty()) {
            throw new IOException("natives.sha256 lists no library");
        }
        return entries;
    }

    /** Copies a resource into a new file (never an existing one) and checks its SHA-256 as written. */
    private static void extract(String name, Path file, String expectedDigest) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no SHA-256 in this JVM", e);
        }
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = resource(name);
             OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int count; (count = in.read(buffer)) > 0; ) {
                sha256.update(buffer, 0, count);
                out.write(buffer, 0, count);
            }
        }
        StringBuilder actual = new StringBuilder();
        for (byte b : sha256.digest()) {
            actual.append(String.format("%02x", b & 0xff));
        }
        if (!actual.toString().equals(expectedDigest)) {
            throw new IOException(name + ": SHA-256 " + actual + ", the jar recorded " + expectedDigest);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = NativeLoader.class.getResourceAsStream(name);
        if (in == null) {
            throw new IOException("the jar has no " + name);
        }
        return in;
    }
}
