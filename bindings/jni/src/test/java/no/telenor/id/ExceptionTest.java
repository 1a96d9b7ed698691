package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExceptionTest {
    @Test
    void eachStatusHasItsClass() {
        Class<?>[] expected = {
            null, InvalidArgumentException.class, MalformedException.class, ConfigurationException.class,
            InsecureException.class, UnsupportedException.class, ParameterConflictException.class, RandomException.class,
            StateMismatchException.class, RedirectMismatchException.class, IssuerMismatchException.class,
            AuthorizationErrorException.class, ConsumedException.class, VersionException.class,
            NetworkTimeoutException.class, NetworkException.class, TlsException.class, HttpStatusException.class,
            ResponseTooLargeException.class, InvalidResponseException.class, TokenInvalidException.class,
            AuthorizationLostException.class, NotSignedInException.class, LineAuthUnavailableException.class,
        };
        for (int code = 1; code < expected.length; code++) {
            TelenoridException e = TelenoridException.create(code, Telenorid.statusName(code), "m", null, null, null, 0);
            assertSame(expected[code], e.getClass(), "status " + code);
            assertEquals(code, e.statusCode());
            assertEquals(Status.of(code), e.status());
        }
        for (int code = 8; code <= 10; code++) {
            assertInstanceOf(CallbackMismatchException.class, TelenoridException.create(code, null, "m", null, null, null, 0));
        }
        for (int code = 14; code <= 18; code++) {
            assertInstanceOf(TransportException.class, TelenoridException.create(code, null, "m", null, null, null, 0));
        }
    }

    @Test
    void anUnknownStatusIsTheBaseClass() {
        TelenoridException e = TelenoridException.create(99, "unknown status", "from the future", null, null, null, 0);
        assertSame(TelenoridException.class, e.getClass());
        assertEquals(99, e.statusCode());
        assertEquals(Status.UNKNOWN, e.status());
    }

    @Test
    void fromNativeDecodesUtf8AndKeepsEveryField() {
        byte[] description = "Åse 😀".getBytes(StandardCharsets.UTF_8);
        TelenoridException e = TelenoridException.fromNative(17, bytes("unexpected HTTP status"), bytes("token endpoint said 503"),
                bytes("temporarily_unavailable"), description, bytes("https://docs.example/e"), 503);
        HttpStatusException http = assertInstanceOf(HttpStatusException.class, e);
        assertEquals("unexpected HTTP status", http.statusName());
        assertEquals("token endpoint said 503", http.message());
        assertEquals("temporarily_unavailable", http.oauthError());
        assertEquals("Åse 😀", http.oauthErrorDescription());
        assertEquals("https://docs.example/e", http.oauthErrorUri());
        assertEquals(503, http.httpStatus());
        assertEquals("token endpoint said 503 (temporarily_unavailable: Åse 😀)", http.getMessage());
    }

    @Test
    void defaultStatusNameWhenNoneIsGiven() {
        TelenoridException e = new StateMismatchException(null, "m", null, null, null, 0);
        assertEquals("state_mismatch", e.statusName());
        assertNull(e.oauthError());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
