package no.telenor.id;

/**
 * A validated app-to-app return ({@code telenorid_app_callback}) from
 * {@link PendingAuthorization#handleAppCallback}: the Vipps/MobilePay app is done and hands back to the
 * merchant app. Immutable; safe to share. Keeps its {@link PendingAuthorization} alive.
 */
public final class AppCallback extends NativeObject {
    private final PendingAuthorization pending;

    AppCallback(long handle, PendingAuthorization pending) {
        super(handle, Native::appCallbackFree);
        this.pending = pending;
    }

    /** The pending authorization this callback belongs to. */
    public @NonNull PendingAuthorization pending() {
        return pending;
    }

    /**
     * The {@code resume_uri} to open in the same browser, or null when the provider sent none (the browser
     * that is still open then carries on by itself).
     */
    public @Nullable String resumeUri() {
        return call(h -> Utf8.decode(Native.appCallbackResumeUri(h)));
    }
}
