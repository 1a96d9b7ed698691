package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
            ClientRejectedException.class, TemporarilyUnavailableException.class, PushRefusedException.class,
            ProviderUnsupportedException.class, CancelledException.class,
        };
        for (int code = 1; code < expected.length; code++) {
            TelenoridException e = TelenoridException.create(code, Telenorid.statusName(code), "m", null, null, null, 0);
            assertSame(expected[code], e.getClass(), "status " + code);
            assertEquals(code, e.statusCode());
            assertEquals(Status.of(code), e.status());
            assertEquals(-1, e.retryAfter(), "no Retry-After unless the bridge says");
        }
        for (int code = 8; code <= 10; code++) {
            assertInstanceOf(CallbackMismatchException.class, TelenoridException.create(code, null, "m", null, null, null, 0));
        }
        for (int code = 14; code <= 18; code++) {
            assertInstanceOf(TransportException.class, TelenoridException.create(code, null, "m", null, null, null, 0));
        }
    }

    @Test
    void eachStatusMapsToAClassOfItsFamily() {
        Map<Status, Class<? extends TelenoridException>> families = new EnumMap<>(Status.class);
        for (Status status : EnumSet.of(Status.INVALID_ARGUMENT, Status.PARAMETER_CONFLICT, Status.CONSUMED, Status.VERSION,
                Status.NOT_SIGNED_IN, Status.CONFIGURATION, Status.INSECURE, Status.UNSUPPORTED)) {
            families.put(status, UsageException.class);
        }
        for (Status status : EnumSet.of(Status.TIMEOUT, Status.NETWORK, Status.TLS, Status.RESPONSE_TOO_LARGE,
                Status.HTTP_STATUS, Status.TEMPORARILY_UNAVAILABLE, Status.LINE_AUTH_UNAVAILABLE)) {
            families.put(status, TransportException.class);
        }
        for (Status status : EnumSet.of(Status.AUTHORIZATION_ERROR, Status.CLIENT_REJECTED, Status.AUTHORIZATION_LOST,
                Status.INVALID_RESPONSE, Status.PUSH_REFUSED, Status.PROVIDER_UNSUPPORTED, Status.EXPIRED,
                Status.ROTATION_POSSIBLY_LOST)) {
            families.put(status, ProviderException.class);
        }
        for (Status status : EnumSet.of(Status.STATE_MISMATCH, Status.REDIRECT_MISMATCH, Status.ISSUER_MISMATCH,
                Status.TOKEN_INVALID, Status.MALFORMED)) {
            families.put(status, ValidationException.class);
        }
        families.put(Status.RANDOM, TelenoridException.class); // in no family
        families.put(Status.CANCELLED, TelenoridException.class); // in no family
        families.put(Status.STORE_FAILED, TelenoridException.class); // in no family
        List<Class<? extends TelenoridException>> all = Arrays.asList(UsageException.class, TransportException.class,
                ProviderException.class, ValidationException.class);
        for (Status status : Status.values()) {
            if (status == Status.OK || status == Status.UNKNOWN) {
                continue;
            }
            Class<? extends TelenoridException> family = families.get(status);
            assertNotNull(family, status.name() + " has no family in this test");
            TelenoridException e = TelenoridException.create(status.code(), null, "m", null, null, null, 0);
            assertInstanceOf(family, e, status.name());
            for (Class<? extends TelenoridException> other : all) {
                if (other != family) {
                    assertFalse(other.isInstance(e), status.name() + " is also a " + other.getSimpleName());
                }
            }
            if (family == TelenoridException.class) {
                assertSame(TelenoridException.class, e.getClass().getSuperclass(), status.name());
            }
        }
        for (Class<? extends TelenoridException> family : all) {
            assertTrue(Modifier.isAbstract(family.getModifiers()), family.getSimpleName());
            assertSame(TelenoridException.class, family.getSuperclass(), family.getSimpleName());
        }
        assertInstanceOf(ValidationException.class, new StateMismatchException(null, "m", null, null, null, 0));
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
                bytes("temporarily_unavailable"), description, bytes("https://docs.example/e"), 503, -1);
        HttpStatusException http = assertInstanceOf(HttpStatusException.class, e);
        assertEquals("unexpected HTTP status", http.statusName());
        assertEquals("token endpoint said 503", http.message());
        assertEquals("temporarily_unavailable", http.oauthError());
        assertEquals("Åse 😀", http.oauthErrorDescription());
        assertEquals("https://docs.example/e", http.oauthErrorUri());
        assertEquals(503, http.httpStatus());
        assertEquals(-1, http.retryAfter());
        assertEquals("token endpoint said 503 (temporarily_unavailable: Åse 😀)", http.getMessage());
    }

    @Test
    void aRefusedClientIsStillAnAuthorizationError() {
        TelenoridException e = TelenoridException.fromNative(24, bytes("client rejected"), bytes("token endpoint refused the client"),
                bytes("invalid_client"), null, null, 401, -1);
        // Handlers written for AuthorizationErrorException keep catching it.
        AuthorizationErrorException refused = assertInstanceOf(AuthorizationErrorException.class, e);
        assertInstanceOf(ClientRejectedException.class, refused);
        assertEquals(Status.CLIENT_REJECTED, refused.status());
        assertEquals("invalid_client", refused.oauthError());
        assertFalse(refused.isTransient(), "a wrong secret stays wrong");
    }

    @Test
    void aRotationJournalSignOutIsAnAuthorizationLost() {
        TelenoridException e = TelenoridException.fromNative(31, bytes("rotation possibly lost"),
                bytes("the provider refused the refresh token of a refresh that was in flight"), bytes("invalid_grant"),
                null, null, 400, -1);
        // "Sign in again" as AUTHORIZATION_LOST is: handlers written for AuthorizationLostException catch it.
        AuthorizationLostException lost = assertInstanceOf(AuthorizationLostException.class, e);
        assertInstanceOf(RotationPossiblyLostException.class, lost);
        assertInstanceOf(ProviderException.class, lost);
        assertEquals(Status.ROTATION_POSSIBLY_LOST, lost.status());
        assertEquals(31, lost.statusCode());
        assertEquals("invalid_grant", lost.oauthError());
        assertFalse(lost.isTransient());
        assertEquals(Status.ROTATION_POSSIBLY_LOST,
                new RotationPossiblyLostException(null, "m", null, null, null, 0).status());
    }

    @Test
    void temporarilyUnavailableIsAnHttpStatusWithItsRetryAfter() {
        TelenoridException e = TelenoridException.fromNative(25, bytes("temporarily unavailable"), bytes("token endpoint said 429"),
                null, null, null, 429, 120);
        // Handlers written for HttpStatusException and TransportException keep catching it.
        HttpStatusException http = assertInstanceOf(HttpStatusException.class, e);
        assertInstanceOf(TransportException.class, http);
        assertInstanceOf(TemporarilyUnavailableException.class, http);
        assertEquals(Status.TEMPORARILY_UNAVAILABLE, http.status());
        assertEquals(429, http.httpStatus());
        assertEquals(120, http.retryAfter());
        assertTrue(http.isTransient());
    }

    @Test
    void theTransientRuleIsTheLibrarys() {
        // telenorid.h: timeout, network, TLS and temporarily unavailable; nothing else, OK and unknown codes neither.
        Set<Status> transientOnes = EnumSet.of(Status.TIMEOUT, Status.NETWORK, Status.TLS, Status.TEMPORARILY_UNAVAILABLE);
        for (Status status : Status.values()) {
            assertEquals(transientOnes.contains(status), status.isTransient(), status.name());
            assertEquals(status.isTransient(), Telenorid.isTransient(status.code()), status.name());
            if (status != Status.OK && status != Status.UNKNOWN) {
                assertEquals(status.isTransient(), TelenoridException.create(status.code(), null, "m", null, null, null, 0).isTransient(),
                        status.name());
            }
        }
        assertFalse(Telenorid.isTransient(99));
        // No Java copy of the rule: the HTTP status does not make an HTTP_STATUS failure transient.
        assertFalse(TelenoridException.create(Status.HTTP_STATUS.code(), null, "HTTP 503", null, null, null, 503).isTransient());
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
