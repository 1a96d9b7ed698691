package no.telenor.id;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strings across the bridge: standard UTF-8 bytes, never JNI's "modified UTF-8".
 *
 * <p>{@link #encode} refuses a string that is not valid UTF-16 (an unpaired surrogate) instead of letting
 * {@link String#getBytes} replace it with '?', so what reaches the library is exactly what the caller
 * wrote. An embedded U+0000 encodes to a 0 byte, which the bridge refuses (a C string would end there).
 */
final class Utf8 {
    private Utf8() {
    }

    /** The UTF-8 bytes of {@code string}, or null for null. */
    static byte[] encode(String string) {
        if (string == null) {
            return null;
        }
        for (int i = 0, n = string.length(); i < n; i++) {
            char c = string.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(string.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("string has an unpaired surrogate U+"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i
                        + ": not valid Unicode, so it has no UTF-8 form");
            }
        }
        return string.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The string of UTF-8 {@code bytes}, or null for null. Zeroes the array afterwards: it is a private
     * copy made by the bridge and may hold a secret (a verifier, a serialized request).
     */
    static String decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        String string = new String(bytes, StandardCharsets.UTF_8);
        Arrays.fill(bytes, (byte) 0);
        return string;
    }
}
