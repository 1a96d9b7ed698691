package no.telenor.id;

/**
 * The library's status codes ({@code TELENORID_E_*} in telenorid.h). The codes are append-only in C and
 * never renumbered; a code this binding does not know yet maps to {@link #UNKNOWN}.
 */
public enum Status {
    OK(0),
    INVALID_ARGUMENT(1),
    MALFORMED(2),
    CONFIGURATION(3),
    INSECURE(4),
    UNSUPPORTED(5),
    PARAMETER_CONFLICT(6),
    RANDOM(7),
    STATE_MISMATCH(8),
    REDIRECT_MISMATCH(9),
    ISSUER_MISMATCH(10),
    AUTHORIZATION_ERROR(11),
    CONSUMED(12),
    VERSION(13),
    TIMEOUT(14),
    NETWORK(15),
    TLS(16),
    HTTP_STATUS(17),
    RESPONSE_TOO_LARGE(18),
    INVALID_RESPONSE(19),
    TOKEN_INVALID(20),
    AUTHORIZATION_LOST(21),
    NOT_SIGNED_IN(22),
    LINE_AUTH_UNAVAILABLE(23),
    CLIENT_REJECTED(24),
    TEMPORARILY_UNAVAILABLE(25),
    PUSH_REFUSED(26),
    PROVIDER_UNSUPPORTED(27),
    CANCELLED(28),
    EXPIRED(29),
    /** A code from a newer library than this binding. */
    UNKNOWN(-1);

    private static final Status[] BY_CODE = new Status[30];

    static {
        for (Status status : values()) {
            if (status.code >= 0) {
                BY_CODE[status.code] = status;
            }
        }
    }

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The C value; -1 for {@link #UNKNOWN}. */
    public int code() {
        return code;
    }

    /**
     * True when a failure with this status may pass on its own, so the same call may succeed later with
     * nothing changed. The library's rule ({@code telenorid_status_is_transient}), asked, not copied: see
     * {@link Telenorid#isTransient(int)}. False for {@link #UNKNOWN}.
     */
    public boolean isTransient() {
        return Telenorid.isTransient(code);
    }

    /** The status of a C value, {@link #UNKNOWN} when this binding does not know it. */
    public static @NonNull Status of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
