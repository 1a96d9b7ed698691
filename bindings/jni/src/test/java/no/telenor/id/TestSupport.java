package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Shared constants and helpers of the tests (the same values as Tests/python/test_smoke.py). */
final class TestSupport {
    // RFC 7636 appendix B.
    static final String RFC7636_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    static final String RFC7636_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    static final String ISSUER = "https://id.example.com";
    static final String ENDPOINT = "https://api.vipps.no/oauth2/auth";
    static final String REDIRECT = "telenorid-example://authcallback/";
    static final String CLIENT_ID = "tnn-example";
    static final String APP_CALLBACK = "merchantapp://app-callback";
    /** 256 bits as unpadded base64url. */
    static final Pattern RANDOM_43 = Pattern.compile("^[A-Za-z0-9_-]{43}$");

    private TestSupport() {
    }

    static Config.Builder baseConfig() {
        return Config.builder()
                .issuer(ISSUER)
                .clientId(CLIENT_ID)
                .redirectUri(REDIRECT)
                .scope("openid profile")
                .authorizationEndpoint(ENDPOINT);
    }

    static Config config() {
        return baseConfig().build();
    }

    /** The query of a URL, decoded as UTF-8, asserting that no parameter repeats. */
    static Map<String, String> query(String url) {
        String raw = URI.create(url).getRawQuery();
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            assertFalse(params.containsKey(name), "repeated parameter " + name + " in " + url);
            params.put(name, value);
        }
        return params;
    }

    static String decode(String component) {
        return URLDecoder.decode(component, StandardCharsets.UTF_8);
    }

    static String encode(String component) {
        return java.net.URLEncoder.encode(component, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
