package no.telenor.id;

/**
 * Library-wide functions: loading the native code, versions, status names.
 *
 * <p>The JNI bridge {@code libtelenorid_jni.so} is loaded on first use of any class of this package: from
 * the absolute path in the system property {@value #LIBRARY_PATH_PROPERTY} when it is set, else with
 * {@code System.loadLibrary("telenorid_jni")} (on Android from the APK's native library directory, on a
 * desktop JVM from {@code java.library.path}), else from the natives jar of this platform on the class path
 * ({@code telenorid-<version>-linux-x86_64.jar}, beside the API jar), which carries the bridge and
 * {@code libtelenorid.so.0}: they are extracted into a private directory, checked against the digests
 * recorded when the jar was built, and loaded by absolute path. When none has the bridge, the
 * {@link UnsatisfiedLinkError} lists every place tried and names the jar to add. The bridge links
 * {@code libtelenorid.so}, which the dynamic linker finds next to it (Android), through the bridge's rpath /
 * {@code LD_LIBRARY_PATH}, or already loaded. Loading also checks that the library's version is compatible
 * with the header the bridge was built against (same major, at least the same minor) and throws
 * {@link UnsatisfiedLinkError} when not.
 */
public final class Telenorid {
    /** The system property that names the bridge by absolute path, instead of {@link #LIBRARY_NAME}. */
    public static final String LIBRARY_PATH_PROPERTY = "telenorid.jni.library";

    /** The name passed to {@link System#loadLibrary}: {@code libtelenorid_jni.so}. */
    public static final String LIBRARY_NAME = "telenorid_jni";

    private Telenorid() {
    }

    /**
     * Loads the native libraries now (they are otherwise loaded on first use), so a host can report a
     * missing or incompatible library early. Idempotent and thread-safe.
     *
     * @throws UnsatisfiedLinkError when the bridge or libtelenorid can't be loaded or are incompatible
     */
    public static void load() {
        Native.ensureLoaded();
    }

    /** The loaded library's version, such as {@code "0.2.0"}. */
    public static @NonNull String version() {
        return Utf8.decode(Native.versionString());
    }

    /** The loaded library's version as one number, {@code 0xMMmmpp} (major, minor, patch one byte each). */
    public static int versionNumber() {
        return Native.version();
    }

    /** The version of {@code telenorid.h} the bridge was compiled against, encoded like {@link #versionNumber()}. */
    public static int headerVersionNumber() {
        return Native.headerVersion();
    }

    /**
     * The library's readable name of a status code, such as {@code "state mismatch"}; never null, also for
     * codes this version does not know.
     */
    public static @NonNull String statusName(int statusCode) {
        return Utf8.decode(Native.statusName(statusCode));
    }

    /**
     * True when a failure with {@code statusCode} may pass on its own, so the same call may succeed later
     * with nothing changed: today a timeout, no connection, a TLS failure (a captive portal, a clock that is
     * off) and {@link Status#TEMPORARILY_UNAVAILABLE} (HTTP 5xx, 429). The library's one rule for every
     * binding ({@code telenorid_status_is_transient}), so a code newer than this binding is judged right
     * too; false for codes the library does not know. Any thread.
     */
    public static boolean isTransient(int statusCode) {
        return Native.statusIsTransient(statusCode);
    }

    static String formatVersion(int number) {
        return (number >>> 16) + "." + ((number >>> 8) & 0xff) + "." + (number & 0xff);
    }
}
