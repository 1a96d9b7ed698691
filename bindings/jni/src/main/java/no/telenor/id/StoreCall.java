package no.telenor.id;

/**
 * What the bridge calls for each operation of an app's {@link Store} (telenorid_jni_store.c looks the methods up
 * by name): runs it and turns what it throws into {@code TELENORID_E_STORE_FAILED}, keeping the throwable for
 * the thread that made the call so that {@link HostCallFailure#attach} can make it the cause of the call's exception.
 * Keys and lock names come as UTF-8 (ASCII) bytes. Keep from renaming by R8/ProGuard (android/consumer-rules.pro).
 */
final class StoreCall {
    private final Store store;

    StoreCall(Store store) {
        this.store = store;
    }

    int load(byte[] key, long record) {
        try {
            byte[] data = store.load(Utf8.decode(key));
            return data == null ? Status.OK.code() : Native.storeRecordSet(record, data);
        } catch (Throwable thrown) {
            return failed(thrown);
        }
    }

    int store(byte[] key, byte[] data) {
        try {
            store.store(Utf8.decode(key), data);
            return Status.OK.code();
        } catch (Throwable thrown) {
            return failed(thrown);
        }
    }

    int lock(byte[] name, int timeoutMillis) {
        try {
            return store.lock(Utf8.decode(name), timeoutMillis) ? Status.OK.code() : Status.TIMEOUT.code();
        } catch (Throwable thrown) {
            return failed(thrown);
        }
    }

    int unlock(byte[] name) {
        try {
            store.unlock(Utf8.decode(name));
            return Status.OK.code();
        } catch (Throwable thrown) {
            return failed(thrown);
        }
    }

    private static int failed(Throwable thrown) {
        HostCallFailure.record(thrown);
        return Status.STORE_FAILED.code();
    }
}
