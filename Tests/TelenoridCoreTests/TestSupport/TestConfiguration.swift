@testable import TelenoridCore

/// The Vipps-like configuration most local tests start from, with `extra` settings on top.
func testConfiguration(_ extra: [ClientConfiguration.Setting: String] = [:]) throws -> ClientConfiguration {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "tnn-example"
    settings[.redirectURI] = "telenorid-example://authcallback/"
    settings[.scope] = "openid profile offline_access"
    settings[.authorizationEndpoint] = "https://id.example.com/oauth/authorize"
    for (key, value) in extra { settings[key] = value }
    return try ClientConfiguration(settings)
}
