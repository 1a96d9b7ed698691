package no.telenor.id;

import java.util.Objects;

/**
 * The mobile operators' forms of a login hint (OpenID MODRNA / CAMARA), for
 * {@link AuthorizationRequest#loginHint} in a backchannel authentication: the library builds and checks them.
 */
public final class LoginHints {
    /** The forms of a login hint (the C values of telenorid_login_hint_form). */
    public enum Form {
        /** {@code tel:+4790000000} (E.164). */
        PHONE_NUMBER(1),
        /** {@code ipport:203.0.113.7:5555} or {@code ipport:[2001:db8::7]:5555}. */
        IP_PORT(2),
        /** {@code operatortoken:<token the operator issued>}. */
        OPERATOR_TOKEN(3);

        private final int code;

        Form(int code) {
            this.code = code;
        }

        /** The C value. */
        public int code() {
            return code;
        }
    }

    private LoginHints() {
    }

    /**
     * {@code "tel:"} and {@code e164}.
     *
     * @throws InvalidArgumentException unless {@code e164} is "+" and 1 to 15 digits, the first not 0
     */
    public static @NonNull String phoneNumber(@NonNull String e164) {
        return decode(Native.loginHintPhoneNumber(Utf8.encode(Objects.requireNonNull(e164, "e164"))));
    }

    /**
     * {@code "ipport:"}, the device's public address (IPv4 dotted decimal, or IPv6 without brackets) and port
     * as the operator's network sees it.
     *
     * @throws InvalidArgumentException for another form of address, or a port outside 1-65535
     */
    public static @NonNull String ipPort(@NonNull String address, int port) {
        return decode(Native.loginHintIpPort(Utf8.encode(Objects.requireNonNull(address, "address")), port));
    }

    /**
     * {@code "operatortoken:"} and a token the operator issued.
     *
     * @throws InvalidArgumentException unless {@code token} is non-empty printable ASCII without spaces
     */
    public static @NonNull String operatorToken(@NonNull String token) {
        return decode(Native.loginHintOperatorToken(Utf8.encode(Objects.requireNonNull(token, "token"))));
    }

    /**
     * Which form {@code hint} is in.
     *
     * @throws InvalidArgumentException for a hint in none of them
     */
    public static @NonNull Form form(@NonNull String hint) {
        int code = Native.loginHintGetForm(Utf8.encode(Objects.requireNonNull(hint, "hint")));
        for (Form form : Form.values()) {
            if (form.code == code) {
                return form;
            }
        }
        throw new IllegalStateException("the library named a login hint form this binding does not know: " + code);
    }

    private static String decode(byte[] bytes) {
        String hint = Utf8.decode(bytes);
        return hint == null ? "" : hint;
    }
}
