// libFuzzer target: what a host reads back from files or storage it may not fully trust — configuration
// documents (ClientConfiguration(json:environment:)) and serialized pending authorizations
// (PendingAuthorization(restoring:configuration:)).
//
// Properties beyond not crashing (a violation traps):
//  - an accepted configuration builds an authorization request whose pending authorization serializes,
//    restores under that configuration and serializes again to the same text;
//  - an accepted configuration's client authentication (including a client_private_key, PEM parsed by
//    OpenSSL or a private JWK) either works or fails with an error, never prompting for a pass phrase, and its discovery
//    URLs can be derived or refused;
//  - a restored pending authorization re-serializes to text that restores to the same serialization,
//    and keeps the configuration's client id and redirect URI.
@testable import TelenoridCore
import FuzzOpenSSLUI

// OpenSSL asks for a pass phrase through its default UI method: on the controlling terminal, or else by
// reading the process's stdin. A library must never do that to its host, so the harness replaces the
// default method by one that refuses and records the attempt.
nonisolated(unsafe) private var passPhrasePrompts = 0
private let refusingUI: Void = {
    guard let method = UI_create_method("fuzz: refuse pass phrase prompts") else {
        fatalError("fuzz_config: UI_create_method failed")
    }
    UI_method_set_reader(method) { _, _ in
        passPhrasePrompts += 1
        return -1
    }
    UI_set_default_method(method)
}()

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_config: \(what); input: \(input.prefix(512))")
}

private final class NoNetwork: HTTPTransport {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        throw TelenoridError(.network, "the fuzz harness has no network")
    }
}

private let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

private func configuration(_ extra: [ClientConfiguration.Setting: String]) -> ClientConfiguration {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "client"
    settings[.redirectURI] = "app://cb"
    settings[.authorizationEndpoint] = "https://id.example.com/authorize"
    for (key, value) in extra { settings[key] = value }
    do { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_config: fixed configuration refused: \(error.message)")
    }
}

// One refusing plain PKCE (the default), one allowing it with another redirect URI.
private let restoreConfigurations = [
    configuration([:]),
    configuration([.allowPlainPKCE: "true", .redirectURI: "http://127.0.0.1:53682/callback", .scope: "openid profile"])
]

private func checkRoundTrip(_ pending: PendingAuthorization, _ input: String) {
    let serialized = pending.serialized()
    let text = serialized.string
    let again: PendingAuthorization
    do { again = try PendingAuthorization(restoring: serialized, configuration: pending.configuration) } catch {
        fail("serialized pending authorization does not restore (\(error.message)): \(text.prefix(512))", input)
    }
    guard again.serialized().bytes == serialized.bytes else {
        fail("pending authorization serialization is not stable: \(text.prefix(512))", input)
    }
    guard again.state == pending.state, again.nonce == pending.nonce, again.url == pending.url,
        again.pkce.verifier.string == pending.pkce.verifier.string, again.pkceMethod == pending.pkceMethod,
        again.responseMode == pending.responseMode, again.maxAge == pending.maxAge,
        again.appCallbackURI == pending.appCallbackURI, again.requestedScope == pending.requestedScope
    else {
        fail("restored pending authorization differs: \(text.prefix(512))", input)
    }
}

private func exercise(_ config: ClientConfiguration, _ input: String) {
    _ = try? ProviderMetadata.discoveryURLs(issuer: config.settings[.issuer] ?? "")
    if let client = try? OIDCClient(configuration: config, transport: NoNetwork(), clock: { 1_700_000_000 }) {
        var grant = FormParameters()
        try? grant.append("grant_type", "refresh_token")
        let before = passPhrasePrompts
        _ = try? client.authenticatedRequest(url: "https://id.example.com/token", parameters: grant)
        if passPhrasePrompts != before {
            fail("reading client_private_key made OpenSSL prompt for a pass phrase (on the terminal or stdin)", input)
        }
    }
    guard config.authorizationEndpoint != nil else { return }
    var request = AuthorizationRequest(configuration: config)
    if config.allowPlainPKCE { try? request.setPKCEMethod(.plain) }
    try? request.set(.maxAge, "300")
    try? request.setAppToApp(callbackURI: "merchantapp://app-callback")
    do {
        let pending = try request.build(state: "s", nonce: "n", pkce: try PKCE(verifier: verifier))
        guard config.redirect != nil else { fail("built an authorization request without a redirect_uri", input) }
        checkRoundTrip(pending, input)
    } catch {
        // redirect_uri is optional (the grants without a browser need none); the code flow asks for it.
        guard config.redirect == nil, error.kind == .configuration else {
            fail("an accepted configuration can't build an authorization request: \(error.message)", input)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    refusingUI
    // Configuration comes in as a String; bytes that are not UTF-8 would have been repaired by the host.
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: buffer, as: UTF8.self) ?? String(decoding: buffer, as: UTF8.self)

    for environment in [nil, "staging", "production"] as [String?] {
        if let config = try? ClientConfiguration(json: text, environment: environment) {
            if let name = environment, config.settings[.environment] == nil {
                fail("configuration from environment \(name) does not record it", text)
            }
            exercise(config, text)
        }
    }
    for config in restoreConfigurations {
        guard let pending = try? PendingAuthorization(restoring: SecretBytes(Array(text.utf8)), configuration: config)
        else { continue }
        guard pending.configuration == config, !pending.state.isEmpty, !pending.nonce.isEmpty else {
            fail("restored pending authorization is inconsistent", text)
        }
        if pending.pkceMethod == .plain && !config.allowPlainPKCE {
            fail("plain PKCE restored where the configuration refuses it", text)
        }
        checkRoundTrip(pending, text)
    }
    return 0
}
