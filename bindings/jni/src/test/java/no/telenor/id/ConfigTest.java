package no.telenor.id;

import static no.telenor.id.TestSupport.CLIENT_ID;
import static no.telenor.id.TestSupport.ENDPOINT;
import static no.telenor.id.TestSupport.ISSUER;
import static no.telenor.id.TestSupport.REDIRECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {
    @Test
    void builderSetsAndGetReads() {
        try (Config config = Config.builder()
                .issuer(ISSUER)
                .clientId(CLIENT_ID)
                .redirectUri(REDIRECT)
                .scopes("openid", "profile", "phone")
                .authorizationEndpoint(ENDPOINT)
                .environment("staging")
                .connectTimeoutMillis(5000)
                .allowPlainPkce(true)
                .build()) {
            assertEquals(ISSUER, config.get(Config.Key.ISSUER));
            assertEquals(CLIENT_ID, config.get(Config.Key.CLIENT_ID));
            assertEquals(REDIRECT, config.get(Config.Key.REDIRECT_URI));
            assertEquals("openid profile phone", config.get(Config.Key.SCOPE));
            assertEquals(ENDPOINT, config.get(Config.Key.AUTHORIZATION_ENDPOINT));
            assertEquals("staging", config.get(Config.Key.ENVIRONMENT));
            assertEquals("5000", config.get(Config.Key.CONNECT_TIMEOUT_MS));
            assertEquals("true", config.get(Config.Key.ALLOW_PLAIN_PKCE));
            assertNull(config.get(Config.Key.TOKEN_ENDPOINT));
            assertNull(config.get(Config.Key.CLIENT_SECRET));
            Map<String, String> map = config.toMap();
            assertEquals(ISSUER, map.get("issuer"));
            assertEquals(CLIENT_ID, map.get("client_id"));
            assertTrue(!map.containsKey("token_endpoint"));
        }
    }

    @Test
    void scopesAreJoinedWithSpaces() {
        try (Config one = TestSupport.baseConfig().scopes("openid").build();
                Config three = TestSupport.baseConfig().scopes("openid", "profile", "phone").build()) {
            assertEquals("openid", one.get(Config.Key.SCOPE));
            assertEquals("openid profile phone", three.get(Config.Key.SCOPE));
        }
        assertThrows(NullPointerException.class, () -> Config.builder().scopes("openid", null));
    }

    @Test
    void builderIsReusableAndNullClears() {
        Config.Builder builder = TestSupport.baseConfig().environment("one");
        try (Config one = builder.build(); Config two = builder.environment(null).build()) {
            assertEquals("one", one.get(Config.Key.ENVIRONMENT));
            assertNull(two.get(Config.Key.ENVIRONMENT));
        }
    }

    @Test
    void settingsFromAMap() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("issuer", ISSUER);
        settings.put("client_id", CLIENT_ID);
        settings.put("redirect_uri", REDIRECT);
        try (Config config = Config.builder().setAll(settings).build()) {
            assertEquals(settings, config.toMap().entrySet().stream()
                    .filter(e -> settings.containsKey(e.getKey()))
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        }
        settings.put("clientid", "typo");
        assertThrows(IllegalArgumentException.class, () -> Config.builder().setAll(settings));
        assertEquals(Config.Key.CLIENT_ID, Config.Key.forSettingName("client_id"));
    }

    @Test
    void missingOrInvalidSettingsAreRefused() {
        ConfigurationException missing = assertThrows(ConfigurationException.class,
                () -> Config.builder().issuer(ISSUER).build());
        assertEquals(Status.CONFIGURATION, missing.status());
        assertTrue(!missing.message().isEmpty());
        assertThrows(InsecureException.class,
                () -> TestSupport.baseConfig().authorizationEndpoint("http://evil.example/auth").build());
        // http on loopback is fine.
        try (Config loopback = TestSupport.baseConfig().issuer("http://127.0.0.1:8080").build()) {
            assertEquals("http://127.0.0.1:8080", loopback.get(Config.Key.ISSUER));
        }
    }

    @Test
    void fromJsonWithEnvironments() {
        String json = "{\"default_environment\": \"production\", \"environments\": {"
                + "\"staging\": {\"issuer\": \"https://staging.example.com\", \"client_id\": \"c\","
                + " \"redirect_uri\": \"app://cb/\", \"scopes\": [\"openid\", \"phone\"]},"
                + "\"production\": {\"issuer\": \"https://id.example.com\", \"client_id\": \"c\","
                + " \"redirect_uri\": \"app://cb/\"}}}";
        try (Config production = Config.fromJson(json); Config staging = Config.fromJson(json, "staging")) {
            assertEquals("https://id.example.com", production.get(Config.Key.ISSUER));
            assertEquals("https://staging.example.com", staging.get(Config.Key.ISSUER));
            assertEquals("openid phone", staging.get(Config.Key.SCOPE));
        }
        assertThrows(ConfigurationException.class, () -> Config.fromJson(json, "nowhere"));
        assertThrows(MalformedException.class, () -> Config.fromJson("{not json"));
        // A misspelt setting is refused, not ignored.
        TelenoridException unknown = assertThrows(TelenoridException.class, () -> Config.fromJson(
                "{\"issuer\": \"https://id.example.com\", \"client_id\": \"c\", \"redirect_uri\": \"app://cb/\","
                        + " \"redirect_url\": \"x\"}"));
        assertTrue(unknown instanceof ConfigurationException || unknown instanceof MalformedException, unknown.toString());
        assertThrows(NullPointerException.class, () -> Config.fromJson(null));
    }
}
