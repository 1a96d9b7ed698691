package no.telenor.id;

/** {@code TELENORID_E_RANDOM}: the system's random generator failed. */
public class RandomException extends TelenoridException {
    private static final long serialVersionUID = 1L;

    /** See {@link TelenoridException#TelenoridException(int, String, String, String, String, String, int)}. */
    public RandomException(String statusName, String message, String oauthError, String oauthErrorDescription,
            String oauthErrorUri, int httpStatus) {
        super(Status.RANDOM.code(), statusName, message, oauthError, oauthErrorDescription, oauthErrorUri, httpStatus);
    }
}
