package no.telenor.id;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the bridge calls with each event of the library's log (telenorid_jni_log.c looks up {@link #onLog} by
 * name): hands it to the {@code java.util.logging} logger {@value TelenoridLog#LOGGER_NAME}, dropping whatever
 * logging throws, since nothing may propagate through the library. Keep from renaming by R8/ProGuard
 * (android/consumer-rules.pro).
 */
final class LogSink {
    /**
     * Held here for good: {@code java.util.logging} keeps loggers only weakly, and a logger collected and made
     * again would have lost the default level given to it below.
     */
    private static final Logger LOGGER = withDefaultLevel(Logger.getLogger(TelenoridLog.LOGGER_NAME));
    private static final LogSink INSTANCE = new LogSink();
    /** The installed sink's native handle; guarded by the class. */
    private static long handle;

    private LogSink() {
    }

    /**
     * WARNING for a logger nobody gave a level (neither {@code telenorid.level} in the logging configuration,
     * which {@code java.util.logging} applies when the logger is made, nor code before the library loaded):
     * a library's routine events stay off a host's console unless the host asks for them, as in Python, where
     * the {@code telenorid} logger inherits the root's WARNING. Without it the logger would inherit the root
     * logger's INFO from the JDK's default configuration, whose console handler prints INFO on stderr.
     */
    private static Logger withDefaultLevel(Logger logger) {
        try {
            if (logger.getLevel() == null) {
                logger.setLevel(Level.WARNING);
            }
        } catch (SecurityException notAllowed) {
            // No LoggingPermission("control"): the level stays the host's.
        }
        return logger;
    }

    /** Tells the library the logger's level now, installing the sink the first time. */
    static synchronized void install() {
        handle = Native.setLogSink(INSTANCE, minimumLevel(effectiveLevel(LOGGER)), handle);
    }

    void onLog(int level, byte[] event, byte[] message) {
        try {
            Level mapped = level(level);
            if (LOGGER.isLoggable(mapped)) {
                LogRecord record = new LogRecord(mapped, Utf8.decode(event) + " " + Utf8.decode(message));
                record.setLoggerName(LOGGER.getName());
                // The library is the source: without one, java.util.logging would name this class as the caller.
                record.setSourceClassName(LOGGER.getName());
                LOGGER.log(record);
            }
        } catch (Throwable dropped) {
            // A handler that fails must not fail the library's call: logging has no one else to tell.
        }
    }

    /** The library's level (Python's numbers) as java.util.logging's. */
    static Level level(int level) {
        if (level >= 40) {
            return Level.SEVERE;
        }
        if (level >= 30) {
            return Level.WARNING;
        }
        return level >= 20 ? Level.INFO : Level.FINE;
    }

    /** The lowest library level whose events {@code threshold} lets through; none (MAX_VALUE) for OFF. */
    static int minimumLevel(Level threshold) {
        int value = threshold.intValue();
        for (int level : new int[] {10, 20, 30, 40}) {
            if (level(level).intValue() >= value) {
                return level;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** The logger's level, or its nearest ancestor's that has one (as isLoggable decides). */
    private static Level effectiveLevel(Logger logger) {
        for (Logger at = logger; at != null; at = at.getParent()) {
            if (at.getLevel() != null) {
                return at.getLevel();
            }
        }
        return Level.INFO;
    }
}
