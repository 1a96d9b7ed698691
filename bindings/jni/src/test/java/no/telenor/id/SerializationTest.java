package no.telenor.id;

import static no.telenor.id.TestSupport.REDIRECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SerializationTest {
    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*1\\b");

    @Test
    void serializeAndRestore() {
        try (Config config = TestSupport.config();
                AuthorizationRequest request = new AuthorizationRequest(config).loginHint("Åse 😀");
                PendingAuthorization pending = request.build()) {
            String document = pending.serialize();
            Matcher version = VERSION.matcher(document);
            assertTrue(version.find(), document);

            try (PendingAuthorization restored = PendingAuthorization.restore(config, document)) {
                assertSame(config, restored.config());
                assertEquals(pending.url(), restored.url());
                assertEquals(pending.state(), restored.state());
                assertEquals(pending.nonce(), restored.nonce());
                assertEquals(pending.codeVerifier(), restored.codeVerifier());
                assertEquals("Åse 😀", TestSupport.query(restored.url()).get("login_hint"));
                try (AuthorizationCallback callback = restored.handleCallback(REDIRECT + "?code=c&state=" + pending.state())) {
                    assertEquals("c", callback.code());
                }
            }

            // Restoring into a configuration made separately (as after a process restart) works too.
            try (Config again = TestSupport.config(); PendingAuthorization restored = PendingAuthorization.restore(again, document)) {
                assertEquals(pending.state(), restored.state());
            }

            String future = version.replaceFirst("\"version\":99");
            assertNotEquals(document, future);
            assertThrows(VersionException.class, () -> PendingAuthorization.restore(config, future));
            assertThrows(MalformedException.class, () -> PendingAuthorization.restore(config, "not json"));
            try (Config other = TestSupport.baseConfig().clientId("someone-else").build()) {
                assertThrows(ConfigurationException.class, () -> PendingAuthorization.restore(other, document));
            }
        }
    }
}
