package no.telenor.id;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A validated redirect ({@code telenorid_callback}) from {@link PendingAuthorization#handleCallback}: the
 * authorization code and the other parameters of the response. Immutable; safe to share. Keeps its
 * {@link PendingAuthorization} alive.
 */
public final class AuthorizationCallback extends NativeObject {
    private final PendingAuthorization pending;

    AuthorizationCallback(long handle, PendingAuthorization pending) {
        super(handle, Native::callbackFree);
        this.pending = pending;
    }

    /** The pending authorization this callback answered. */
    public @NonNull PendingAuthorization pending() {
        return pending;
    }

    /** The authorization code. */
    public @NonNull String code() {
        return call(h -> Utf8.decode(Native.callbackCode(h)));
    }

    /** A parameter of the response by name ({@code "scope"}, {@code "session_state"}), or null when absent. */
    public @Nullable String parameter(@NonNull String name) {
        byte[] bytes = Utf8.encode(Objects.requireNonNull(name, "name"));
        return call(h -> Utf8.decode(Native.callbackParameter(h, bytes)));
    }

    /** The parameters of {@code names} that are present, by name (for an Android {@code Bundle}, say). */
    public @NonNull Map<String, String> parameters(@NonNull String... names) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : names) {
            String value = parameter(name);
            if (value != null) {
                map.put(name, value);
            }
        }
        return map;
    }
}
