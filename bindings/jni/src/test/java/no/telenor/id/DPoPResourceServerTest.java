package no.telenor.id;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * DPoP at a resource server through the JNI bridge (RFC 9449 §4.3, §7.1), as Tests/python/test_dpop_rs.py does
 * through ctypes: {@link ResourceServer#verifyDPoP} on proofs the library itself makes
 * ({@link AuthState#requestHeaders} of a state restored with a DPoP key the library holds), the
 * WWW-Authenticate error and rule of each refusal, nonces, and a {@link DPoPReplayCache} shared by two
 * resource servers. No network.
 */
class DPoPResourceServerTest {
    /** A P-256 key made for these tests with openssl, saved as the library saves a DPoP key it holds. */
    private static final String DPOP_KEY = "{\"v\":1,\"alg\":\"ES256\",\"jwk\":{\"kty\":\"EC\",\"crv\":\"P-256\","
            + "\"x\":\"D6zG_4O2xShEbB8qmerqiGOilHaogD3-q7aBTL_aNiI\",\"y\":\"gfMCri2rWh0H9hghyUmSCXL-BKjqktwVU9XsCDpfgQo\","
            + "\"d\":\"8nDSQVJcTGgARFxDGvt-k1JvYl9ZToNw3t0p-MjWA8E\"}}";
    /** Its RFC 7638 thumbprint: the cnf.jkt of tokens bound to it. */
    private static final String JKT = "VThPefez7erv3aUAfyD0vQgr2Zma-YQ4a4YRmWOnuk0";
    private static final String TOKEN = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
    private static final String API = "https://api.example.com/items";
    private static final String STATE = "{\"version\":1,\"access_token\":\"" + TOKEN
            + "\",\"token_type\":\"DPoP\",\"dpop_key\":" + DPOP_KEY + "}";

    private static String proof(AuthState state, String nonce) {
        RequestHeaders headers = state.requestHeaders("GET", API, nonce);
        assertEquals("DPoP " + TOKEN, headers.authorization());
        return headers.dpop();
    }

    private static void refused(Runnable call, String code, String rule) {
        TokenInvalidException e = assertThrows(TokenInvalidException.class, call::run);
        assertEquals(code, e.oauthError());
        assertTrue(e.oauthErrorDescription().contains(rule), e.oauthErrorDescription());
        assertFalse(e.getMessage().contains(TOKEN));
    }

    @Test
    void aProofTheLibraryMadeVerifiesOnceAndEachRefusalNamesItsRule() {
        try (Config config = TestSupport.baseConfig().build(); Client client = new Client(config);
             AuthState state = client.restore(STATE);
             ResourceServer server = new ResourceServer(client, "https://api.example.com/")) {
            String proof = proof(state, null);
            server.verifyDPoP(proof, "GET", API + "?page=2", TOKEN, JKT);
            refused(() -> server.verifyDPoP(proof, "GET", API, TOKEN, JKT), "invalid_dpop_proof", "replayed");
            String next = proof(state, null);
            refused(() -> server.verifyDPoP(next, "POST", API, TOKEN, JKT), "invalid_dpop_proof", "check 8");
            refused(() -> server.verifyDPoP(next, "GET", API + "/1", TOKEN, JKT), "invalid_dpop_proof", "check 9");
            refused(() -> server.verifyDPoP(next, "GET", API, "other", JKT), "invalid_dpop_proof", "ath");
            refused(() -> server.verifyDPoP(next, "GET", API, TOKEN, "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"),
                    "invalid_dpop_proof", "cnf.jkt");
            server.setDPoPSigningAlgorithms("EdDSA");
            refused(() -> server.verifyDPoP(next, "GET", API, TOKEN, JKT), "invalid_dpop_proof", "check 5");
            server.setDPoPSigningAlgorithms(null);
            assertThrows(InvalidArgumentException.class, () -> server.verifyDPoP(next, "G T", API, TOKEN, JKT));
            assertDoesNotThrow(() -> server.verifyDPoP(next, "GET", API, TOKEN, JKT));
        }
    }

    @Test
    void noncesAreAskedForAndTaken() {
        try (Config config = TestSupport.baseConfig().build(); Client client = new Client(config);
             AuthState state = client.restore(STATE);
             ResourceServer server = new ResourceServer(client, "https://api.example.com/")) {
            server.setDPoPRequireNonce(true);
            String first = proof(state, null);
            refused(() -> server.verifyDPoP(first, "GET", API, TOKEN, JKT), "use_dpop_nonce", "nonce");
            String nonce = server.dpopNonce();
            assertEquals(43, nonce.length());
            server.verifyDPoP(proof(state, nonce), "GET", API, TOKEN, JKT);
        }
    }

    @Test
    void aSharedCacheRefusesAReplayAtEveryServer() {
        try (Config config = TestSupport.baseConfig().build(); Client client = new Client(config);
             AuthState state = client.restore(STATE);
             ResourceServer first = new ResourceServer(client, "https://api.example.com/");
             ResourceServer second = new ResourceServer(client, "https://api.example.com/")) {
            try (DPoPReplayCache cache = new DPoPReplayCache(30, 16)) {
                first.setDPoPReplayCache(cache);
                second.setDPoPReplayCache(cache);
            } // the servers keep it
            assertEquals(first.dpopNonce(), second.dpopNonce());
            String proof = proof(state, null);
            first.verifyDPoP(proof, "GET", API, TOKEN, JKT);
            refused(() -> second.verifyDPoP(proof, "GET", API, TOKEN, JKT), "invalid_dpop_proof", "replayed");
            assertThrows(InvalidArgumentException.class, () -> new DPoPReplayCache(0, 16));
        }
    }
}
