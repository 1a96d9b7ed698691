package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0) from Java, without a provider (none here implements
 * it; the exchange itself runs against the fault provider double in Tests/python/test_native_sso.py): the pair an
 * app hands over is checked before anything is sent (§3.4's ds_hash, the scope's openid), and the device
 * secret's token type and field are the header's.
 */
class NativeSsoTest {
    /** Unsigned: only its claims are read before the exchange. Its ds_hash is that of "device-secret". */
    private static final String ID_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwic3ViIjoi"
            + "YWxpY2UiLCJkc19oYXNoIjoiRTlfZ2Z3Mmw2STVPRWlzalF3QmNkdyJ9.c2ln";

    @Test
    void aMismatchedPairNeverLeavesTheDevice() {
        Config config = Config.builder().issuer("https://id.example.com").clientId("app-two").build();
        try (Client client = new Client(config)) {
            InvalidArgumentException hash = assertThrows(InvalidArgumentException.class,
                    () -> client.nativeSso(ID_TOKEN, "another-secret", null));
            assertTrue(hash.message().contains("ds_hash"), hash.message());
            InvalidArgumentException scope = assertThrows(InvalidArgumentException.class,
                    () -> client.nativeSso(ID_TOKEN, "device-secret", "profile"));
            assertTrue(scope.message().contains("openid"), scope.message());
            assertThrows(InvalidArgumentException.class, () -> client.nativeSso("not-a-jwt", "device-secret", null));
            assertThrows(NullPointerException.class, () -> client.nativeSso(ID_TOKEN, null, null));
        }
    }

    @Test
    void theDeviceSecretsTypeAndField() {
        assertEquals("urn:openid:params:token-type:device-secret", TokenType.DEVICE_SECRET);
        assertEquals(9, AuthState.Field.DEVICE_SECRET.code());
    }
}
