package no.telenor.id;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Key-value pairs and string lists across the bridge: a {@code Map<String, String>} (an Android
 * {@code Bundle}'s strings) as one flat UTF-8 {@code byte[][]} (name, value, name, value ...), the form
 * telenorid_jni_idp_app.c turns into {@code telenorid_params}.
 */
final class Bundles {
    private Bundles() {
    }

    static byte[][] encode(Map<String, String> bundle) {
        Objects.requireNonNull(bundle, "bundle");
        byte[][] flat = new byte[bundle.size() * 2][];
        int i = 0;
        for (Map.Entry<String, String> entry : bundle.entrySet()) {
            flat[i++] = Utf8.encode(Objects.requireNonNull(entry.getKey(), "a bundle name"));
            flat[i++] = Utf8.encode(Objects.requireNonNull(entry.getValue(), "the value of " + entry.getKey()));
        }
        return flat;
    }

    /** The pairs in the library's order. */
    static Map<String, String> decode(byte[][] flat) {
        Map<String, String> bundle = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.length; i += 2) {
            bundle.put(Utf8.decode(flat[i]), Utf8.decode(flat[i + 1]));
        }
        Arrays.fill(flat, null);
        return bundle;
    }

    static byte[][] encodeAll(Collection<String> strings, String what) {
        Objects.requireNonNull(strings, what);
        byte[][] encoded = new byte[strings.size()][];
        int i = 0;
        for (String string : strings) {
            encoded[i++] = Utf8.encode(Objects.requireNonNull(string, "an element of " + what));
        }
        return encoded;
    }
}
