package no.telenor.id;

import static no.telenor.id.TestSupport.REDIRECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import no.telenor.id.AuthorizationRequest.ClaimTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Strings cross as exact UTF-8: supplementary characters survive, a NUL is refused rather than truncated. */
class StringsTest {
    private static void assertNulRefused(Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains("NUL"), e.getMessage());
    }

    @Test
    void anEmbeddedNulIsRefusedNotTruncated() {
        // Truncated at the NUL, each of these would be valid and succeed.
        assertNulRefused(() -> Pkce.fromVerifier(TestSupport.RFC7636_VERIFIER + "\0garbage"));
        assertNulRefused(() -> TestSupport.baseConfig().issuer(TestSupport.ISSUER + "\0.evil.example").build());
        assertNulRefused(() -> Config.fromJson("{\"issuer\": \"https://id.example.com\", \"client_id\": \"c\","
                + " \"redirect_uri\": \"app://cb/\"}\0 trailing"));
        assertNulRefused(() -> Config.fromJson("{}", "production\0"));
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config);
                PendingAuthorization pending = request.build()) {
            assertNulRefused(() -> request.loginHint("alice\0bob"));
            assertNulRefused(() -> request.addParameter("resource\0", "x"));
            assertNulRefused(() -> request.addParameter("resource", "x\0y"));
            assertNulRefused(() -> request.addParameters(Collections.singletonMap("a", "\0")));
            assertNulRefused(() -> request.addClaim(ClaimTarget.ID_TOKEN, "name", true, "why\0"));
            assertNulRefused(() -> request.addClaim(ClaimTarget.ID_TOKEN, "name", null, null, "\"x\"\0", null));
            assertNulRefused(() -> request.appToApp("merchantapp://cb\0"));
            assertNulRefused(() -> pending.handleCallback(REDIRECT + "?code=c&state=" + pending.state() + "\0&x=1"));
            assertNulRefused(() -> pending.handleAppCallback(TestSupport.APP_CALLBACK + "?state=" + pending.state() + "\0"));
            assertNulRefused(() -> pending.handleAppCallback(TestSupport.APP_CALLBACK + "?state=" + pending.state(), "host\0"));
            assertNulRefused(() -> PendingAuthorization.restore(config, pending.serialize() + "\0"));
            try (AuthorizationCallback callback = pending.handleCallback(REDIRECT + "?code=c&state=" + pending.state())) {
                assertNulRefused(() -> callback.parameter("scope\0"));
                assertEquals("c", callback.code());
            }
            // None of the refused calls changed the request.
            try (PendingAuthorization clean = request.build()) {
                assertEquals(null, TestSupport.query(clean.url()).get("login_hint"));
                assertEquals(null, TestSupport.query(clean.url()).get("claims"));
            }
        }
    }

    @Test
    void anUnpairedSurrogateIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TestSupport.baseConfig().environment("bad \uD83D here"));
        assertTrue(e.getMessage().contains("surrogate"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Pkce.fromVerifier("\uDE00" + TestSupport.RFC7636_VERIFIER));
    }

    @Test
    void modifiedUtf8IsNotUtf8() {
        // Why the bridge does not use GetStringUTFChars: JNI's "modified UTF-8" writes U+1F600 as a
        // surrogate pair (CESU-8, ED A0 BD ED B8 80), which the library rightly refuses as invalid UTF-8;
        // standard UTF-8 (F0 9F 98 80) is accepted.
        byte[] prefix = "{\"issuer\": \"https://id.example.com\", \"client_id\": \"c\", \"redirect_uri\": \"app://cb/\", \"environment\": \"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] cesu8 = {(byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80};
        byte[] utf8 = {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80};
        byte[] suffix = "\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Native.configFromJson(concat(prefix, cesu8, suffix), null));
        assertEquals(Status.INVALID_ARGUMENT, e.status());
        assertThrows(InvalidArgumentException.class, () -> Native.configFromJson(new byte[] {(byte) 0xFF}, null));
        try (Config config = new Config(Native.configFromJson(concat(prefix, utf8, suffix), null))) {
            assertEquals("😀", config.get(Config.Key.ENVIRONMENT));
        }
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }

    @Test
    void supplementaryCharactersRoundTrip() {
        String value = "Åse 😀 ∑ 𝄞 \u00e9\u0301 ﷽";
        try (Config config = TestSupport.baseConfig().environment(value).build()) {
            assertEquals(value, config.get(Config.Key.ENVIRONMENT));
            assertEquals(value, config.toMap().get("environment"));
        }
    }

    @Test
    void overlongInputIsTheLibrarysInvalidArgument() {
        char[] chars = new char[1024 * 1024 + 1];
        java.util.Arrays.fill(chars, 'a');
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> request.loginHint(new String(chars)));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            request.loginHint(new String(chars, 0, 1024 * 1024)); // exactly the limit is fine
        }
    }
}
