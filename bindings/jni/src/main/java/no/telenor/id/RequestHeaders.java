package no.telenor.id;

/**
 * The headers for one request of the app's own to a resource server, from {@link AuthState#requestHeaders}:
 * {@code Authorization}, and for a DPoP-bound token (RFC 9449 §7) the {@code DPoP} proof for that request.
 * Immutable. {@link #toString()} leaves the token out.
 */
public final class RequestHeaders {
    private final String authorization;
    private final String dpop;

    RequestHeaders(String authorization, String dpop) {
        this.authorization = authorization;
        this.dpop = dpop;
    }

    /** The {@code Authorization} header's value: {@code "DPoP <token>"} or {@code "Bearer <token>"}. */
    public @NonNull String authorization() {
        return authorization;
    }

    /** The {@code DPoP} header's value, or null for a Bearer token (send no DPoP header then). */
    public @Nullable String dpop() {
        return dpop;
    }

    @Override
    public @NonNull String toString() {
        return "RequestHeaders[" + (dpop != null ? "DPoP" : "Bearer") + "]";
    }
}
