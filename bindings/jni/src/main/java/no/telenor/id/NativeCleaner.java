package no.telenor.id;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The safety net for handles nobody closed: frees them after their owner became unreachable.
 *
 * <p>A small {@code java.lang.ref.Cleaner} of our own (that class is Java 9 and Android API 33; this runs
 * on every Android version and Java 8): one phantom reference per owner and a daemon thread,
 * {@value #THREAD_NAME}, that runs the action of each one the collector enqueues. The action must not
 * reference the owner (it would never become unreachable); {@link NativeObject} passes the owner's
 * {@link NativeObject.Handle}, which frees under the handle's write lock, so a collection can never free a
 * handle while a call on it is still running, even if the owner object itself became unreachable during
 * that call.
 */
final class NativeCleaner {
    static final String THREAD_NAME = "telenorid-cleaner";

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    /** Keeps the registrations themselves reachable until they have run or were unregistered. */
    private static final Set<Registration> LIVE = Collections.newSetFromMap(new ConcurrentHashMap<>());
    private static final AtomicLong CLEANED = new AtomicLong();
    private static Thread thread; // guarded by NativeCleaner.class

    private NativeCleaner() {
    }

    /** Runs {@code action} once, after {@code owner} has become phantom reachable, unless unregistered first. */
    static Registration register(Object owner, Runnable action) {
        startThread();
        Registration registration = new Registration(owner, action);
        LIVE.add(registration);
        return registration;
    }

    /** How many actions ran because their owner was collected (for tests). */
    static long cleanedCount() {
        return CLEANED.get();
    }

    private static synchronized void startThread() {
        if (thread != null) {
            return;
        }
        thread = new Thread(NativeCleaner::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.setContextClassLoader(null);
        thread.start();
    }

    private static void run() {
        for (;;) {
            try {
                Registration registration = (Registration) QUEUE.remove();
                if (registration.take()) {
                    CLEANED.incrementAndGet();
                    try {
                        registration.action.run();
                    } catch (Throwable ignored) {
                        // Nothing to report to and nothing to retry: the owner is gone.
                    }
                }
            } catch (InterruptedException ignored) {
                // Keep serving the queue.
            }
        }
    }

    static final class Registration extends PhantomReference<Object> {
        private final Runnable action;

        private Registration(Object owner, Runnable action) {
            super(owner, QUEUE);
            this.action = action;
        }

        /** Drops the registration after an explicit close: the action will not run. */
        void unregister() {
            take();
        }

        private boolean take() {
            if (LIVE.remove(this)) {
                clear();
                return true;
            }
            return false;
        }
    }
}
