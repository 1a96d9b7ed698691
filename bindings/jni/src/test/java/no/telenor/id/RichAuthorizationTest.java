package no.telenor.id;

import static no.telenor.id.TestSupport.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resource indicators (RFC 8707), rich authorization (RFC 9396) and step-up (RFC 9470) on the request. */
class RichAuthorizationTest {
    /** RFC 9396 §2's first example, compact. */
    static final String DETAILS = "[{\"type\":\"account_information\",\"actions\":[\"list_accounts\",\"read_balances\"],"
            + "\"locations\":[\"https://example.com/accounts\"]}]";

    @Test
    void detailsResourceAndStepUpGoIntoTheURL() {
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            request.addResource("https://api.example.com/").authorizationDetails(DETAILS);
            assertFalse(request.applyStepUp("Bearer error=\"invalid_token\""));
            assertTrue(request.applyStepUp(
                    "Bearer error=\"insufficient_user_authentication\", error_description=\"A different authentication level is required\", acr_values=\"myACR\""));
            try (PendingAuthorization pending = request.build()) {
                Map<String, String> params = query(pending.url());
                assertEquals("https://api.example.com/", params.get("resource"));
                assertEquals(DETAILS, params.get("authorization_details"));
                assertEquals("myACR", params.get("acr_values"));
                assertEquals("{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"myACR\"]}}}", params.get("claims"));
            }
        }
    }

    /** RFC 9396 §6.1: kept for the code exchange (through the saved pending request), never in the URL. */
    @Test
    void tokenDetailsStayOutOfTheURLAndAreSaved() {
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            request.authorizationDetails(DETAILS).tokenAuthorizationDetails(DETAILS);
            assertThrows(InvalidArgumentException.class, () -> request.tokenAuthorizationDetails("[]"));
            try (PendingAuthorization pending = request.build()) {
                assertEquals(DETAILS, query(pending.url()).get("authorization_details"));
                assertTrue(pending.serialize().contains("\"token_authorization_details\":" + DETAILS));
            }
            request.tokenAuthorizationDetails(null);
            try (PendingAuthorization pending = request.build()) {
                assertFalse(pending.serialize().contains("token_authorization_details"));
            }
        }
    }

    @Test
    void badValuesAreRefused() {
        try (Config config = TestSupport.config(); AuthorizationRequest request = new AuthorizationRequest(config)) {
            assertThrows(InvalidArgumentException.class, () -> request.addResource("not a uri"));
            assertThrows(InvalidArgumentException.class, () -> request.addResource("https://api.example.com/#f"));
            assertThrows(InvalidArgumentException.class, () -> request.authorizationDetails("[{\"actions\":[]}]"));
            assertThrows(InvalidArgumentException.class, () -> request.authorizationDetails("[]"));
            assertThrows(InvalidResponseException.class,
                    () -> request.applyStepUp("Bearer error=\"insufficient_user_authentication\", max_age=\"soon\""));
            request.authorizationDetails(null);
        }
    }
}
