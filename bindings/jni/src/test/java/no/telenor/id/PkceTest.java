package no.telenor.id;

import static no.telenor.id.TestSupport.RFC7636_CHALLENGE;
import static no.telenor.id.TestSupport.RFC7636_VERIFIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PkceTest {
    @Test
    void rfc7636AppendixB() {
        try (Pkce pkce = Pkce.fromVerifier(RFC7636_VERIFIER)) {
            assertEquals(RFC7636_VERIFIER, pkce.verifier());
            assertEquals(RFC7636_CHALLENGE, pkce.challenge());
        }
    }

    @Test
    void generatedVerifiers() {
        try (Pkce a = Pkce.generate(); Pkce b = Pkce.generate(); Pkce shortest = Pkce.generate(43);
                Pkce longest = Pkce.generate(128); Pkce byDefault = Pkce.generate(0)) {
            assertEquals(Pkce.DEFAULT_LENGTH, a.verifier().length());
            assertEquals(Pkce.DEFAULT_LENGTH, byDefault.verifier().length());
            assertEquals(43, shortest.verifier().length());
            assertEquals(128, longest.verifier().length());
            assertTrue(a.verifier().matches("[A-Za-z0-9._~-]+"));
            assertNotEquals(a.verifier(), b.verifier());
            try (Pkce again = Pkce.fromVerifier(a.verifier())) {
                assertEquals(a.challenge(), again.challenge());
            }
        }
    }

    @Test
    void outOfRangeIsRefused() {
        for (int length : new int[] {1, 42, 129, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Pkce.generate(length),
                    "length " + length);
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            assertEquals(1, e.statusCode());
            assertEquals("invalid argument", e.statusName());
        }
        assertThrows(InvalidArgumentException.class, () -> Pkce.fromVerifier("short"));
        assertThrows(InvalidArgumentException.class, () -> Pkce.fromVerifier(RFC7636_VERIFIER.replace('-', '+')));
        assertThrows(NullPointerException.class, () -> Pkce.fromVerifier(null));
    }

    @Test
    void generatedPairsInOneCall() {
        for (int length : new int[] {43, 64, 128}) {
            Pkce.Pair pair = Pkce.generatePair(length);
            assertEquals(length, pair.verifier().length());
            assertTrue(pair.verifier().matches("[A-Za-z0-9._~-]+"));
            assertEquals(43, pair.challenge().length());
            try (Pkce again = Pkce.fromVerifier(pair.verifier())) {
                assertEquals(again.challenge(), pair.challenge());
            }
        }
        assertEquals(Pkce.DEFAULT_LENGTH, Pkce.generatePair(0).verifier().length());
        assertNotEquals(Pkce.generatePair(43).verifier(), Pkce.generatePair(43).verifier());
        assertEquals("Pkce.Pair", Pkce.generatePair(43).toString());
        for (int length : new int[] {1, 42, 129, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Pkce.generatePair(length),
                    "length " + length);
            assertEquals(Status.INVALID_ARGUMENT, e.status());
        }
    }
}
