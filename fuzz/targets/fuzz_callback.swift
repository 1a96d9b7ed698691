// libFuzzer target: every parser a redirect goes through — URI(parsing:), FormParameters(parsing:),
// PendingAuthorization.handleCallback and handleAppCallback — on fixed pending authorizations that are
// rebuilt whenever a valid callback consumes one.
//
// Properties beyond not crashing (a violation traps):
//  - FormParameters: what parses re-parses from its own encoding to equal pairs, with unique names;
//  - URI: scheme non-empty and lower-case, port within 0...65535, no authority parts without "//";
//  - handleCallback: a success carries a non-empty code equal to the query's (or fragment's) `code` and
//    a `state` equal to the request's, consumes the request, and the same redirect then fails as consumed;
//  - handleAppCallback: never consumes; a resume_uri it returns is https on the allowed host;
//  - ValidUTF8 (what every decoded parameter goes through) accepts exactly what String(validating:) does.
@testable import TelenoridCore

private let state = "218gz18yveu1ybajwh2g1h3g"

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_callback: \(what); input: \(input.prefix(512))")
}

private struct Setup {
    let redirectURI: String
    let authorizationEndpoint: String
    let appCallbackURI: String?
    let fragment: Bool
}

// Custom-scheme redirect with the Vipps app-to-app callback (query response mode); loopback http with
// a port and fragment response mode; https app callback on another host than the authorization endpoint.
private let setups = [
    Setup(
        redirectURI: "merchantapp://redirect-uri",
        authorizationEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/auth",
        appCallbackURI: "merchantapp://app-callback", fragment: false),
    Setup(
        redirectURI: "http://127.0.0.1:53682/callback", authorizationEndpoint: "https://id.example.com/oauth/authorize",
        appCallbackURI: "merchant-app://callback", fragment: true),
    Setup(
        redirectURI: "telenorid-example://authcallback/",
        authorizationEndpoint: "https://id.example.com/oauth/authorize",
        appCallbackURI: "https://example.com/app-callback", fragment: false)
]

private func build(_ setup: Setup) -> PendingAuthorization {
    do {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "client"
        settings[.redirectURI] = setup.redirectURI
        settings[.authorizationEndpoint] = setup.authorizationEndpoint
        var request = AuthorizationRequest(configuration: try ClientConfiguration(settings))
        if let app = setup.appCallbackURI { try request.setAppToApp(callbackURI: app) }
        if setup.fragment { try request.set(.responseMode, "fragment") }
        return try request.build(
            state: state, nonce: "n", pkce: try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    } catch {
        fatalError("fuzz_callback: the fixed pending authorization can't be built: \(error.message)")
    }
}

nonisolated(unsafe) private var pendings: [PendingAuthorization] = setups.map(build)

private func checkURI(_ text: String) {
    guard let uri = try? URI(parsing: text) else { return }
    guard !uri.scheme.isEmpty, uri.scheme == uri.scheme.lowercased() else {
        fail("URI scheme \(uri.scheme) not lower-case", text)
    }
    if let port = uri.port, !(0...65535).contains(port) { fail("URI port \(port) out of range", text) }
    if !uri.hasAuthority && (uri.host != nil || uri.port != nil || uri.userInfo != nil) {
        fail("URI has authority parts but no authority", text)
    }
    if let host = uri.host, host != host.lowercased() { fail("URI host not lower-case", text) }
    _ = uri.isLoopback
    _ = uri.isSecureEndpoint
}

private func checkForm(_ text: Substring, _ input: String) {
    guard let form = try? FormParameters(parsing: text) else { return }
    let names = form.pairs.map(\.name)
    guard Set(names).count == names.count else { fail("form parameters with a repeated name", input) }
    guard names.allSatisfy({ !$0.isEmpty }) else { fail("form parameter with an empty name", input) }
    for pair in form.pairs where form[pair.name] != pair.value { fail("form lookup disagrees", input) }
    let encoded = form.encoded
    guard let again = try? FormParameters(parsing: encoded[...]) else {
        fail("encoded form does not parse: \(encoded)", input)
    }
    guard again == form else { fail("encoded form parses to other pairs: \(encoded)", input) }
    guard again.encoded == encoded else { fail("form encoding is not stable", input) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCallback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: data, count: size)
    // Hosts hand over Swift/C strings; bytes that are not UTF-8 arrive repaired (U+FFFD), as a host's
    // String(decoding:) would make them.
    let standard = String(validating: buffer, as: UTF8.self)
    if ValidUTF8.string(UnsafeRawBufferPointer(buffer)) != standard {
        fail("ValidUTF8 disagrees with String(validating:)", String(decoding: buffer, as: UTF8.self))
    }
    let text = standard ?? String(decoding: buffer, as: UTF8.self)

    checkURI(text)
    checkForm(text[...], text)
    if let uri = try? URI(parsing: text) {
        if let query = uri.query { checkForm(query[...], text) }
        if let fragment = uri.fragment { checkForm(fragment[...], text) }
    }

    // The resume host allowed: the authorization endpoint's (nil) or an explicit one, by input length.
    let host: String? = size % 2 == 0 ? nil : "login.example"
    for index in pendings.indices {
        let pending = pendings[index]
        if let callback = try? pending.handleAppCallback(text, allowedResumeHost: host) {
            if let resume = callback.resumeURI {
                guard let uri = try? URI(parsing: resume), uri.scheme == "https", uri.userInfo == nil,
                    uri.host == (host ?? pending.configuration.authorizationEndpoint?.host)
                else {
                    fail("app callback accepted resume_uri \(resume)", text)
                }
            }
        }
        if pending.isConsumed { fail("handleAppCallback consumed the request", text) }

        guard let response = try? pending.handleCallback(text) else { continue }
        guard !response.code.isEmpty, pending.isConsumed, response.pending === pending, !response.isExchanged else {
            fail("accepted callback in an inconsistent state", text)
        }
        let uri: URI
        do { uri = try URI(parsing: text) } catch { fail("accepted callback is not a URI", text) }
        let component = (pending.responseMode == "fragment" ? uri.fragment : uri.query) ?? ""
        guard let form = try? FormParameters(parsing: component[...]), form["code"] == response.code,
            form["state"] == state, response.parameters == form
        else {
            fail("accepted callback's code or state is not the redirect's", text)
        }
        do {
            _ = try pending.handleCallback(text)
            fail("a consumed request accepted the same callback again", text)
        } catch {
            guard error.kind == .consumed else { fail("replayed callback failed as \(error.kind), not consumed", text) }
        }
        guard response.markExchanged(), !response.markExchanged() else { fail("markExchanged is not single-use", text) }
        pendings[index] = build(setups[index])
    }
    return 0
}
