// libFuzzer target: both parsers of the IdP-app flow (Salesforce Mobile SDK identity provider style) — the
// IdP app's reading of an SP's request (URL on the IdP app's scheme, and the same query as key-value pairs)
// and the SP's reading of the IdP app's response (URL on its redirect URI, and as pairs), for an SP redirect
// URI without and with a query of its own (RFC 6749 §3.1.2) — plus the IdP side's reading of the provider's
// redirect for a request it accepted.
//
// Properties beyond not crashing (a violation traps):
//  - an accepted request has a 43-character base64url challenge, a redirect URI that is one of the
//    caller's, a non-empty state and client id; it re-parses from its own URL and pairs to an equal request;
//  - its pairs and its provider URL hold only the names the library writes (unknown input names are
//    ignored, RFC 6749 §3.1, never forwarded); the provider URL carries the SP's client id, redirect URI,
//    state and S256 challenge;
//  - the provider's redirect to the SP's redirect URI (its own query kept) gives a response with the
//    request's state, whose URL the SP side reads back at that redirect URI to the same pairs;
//  - an accepted SP response carries the pending request's state and an allowed login host, only response
//    names, consumes the request once, and the same response then fails as consumed.
@testable import TelenoridCore

private let idpAppURI = "idpapp://authorize"
private let callers = ["com.example.sp:/oauth2redirect", "https://sp.example.com/cb", "com.example.sp:/cb?app=x"]
/// The SP side's redirect URIs: one plain, one with a query of its own.
private let spRedirects = [callers[0], callers[2]]
/// What the IdP side's provider URL may hold.
private let authorizationNames: Set<String> = [
    "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
    "login_hint"
]
private let state = "218gz18yveu1ybajwh2g1h3g"

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_idp_app: \(what); input: \(input.prefix(512))")
}

private func buildPending(redirectURI: String) -> PendingAuthorization {
    do {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://login.example.com"
        settings[.clientID] = "sp-app"
        settings[.redirectURI] = redirectURI
        settings[.authorizationEndpoint] = "https://login.example.com/authorize"
        return try AuthorizationRequest(configuration: ClientConfiguration(settings))
            .build(state: state, nonce: "n", pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    } catch {
        fatalError("fuzz_idp_app: the fixed pending authorization can't be built: \(error.message)")
    }
}

nonisolated(unsafe) private var pendings = spRedirects.map(buildPending)

private func checkRequest(_ request: IdPAppRequest, _ text: String) {
    guard request.codeChallenge.utf8.count == 43, !request.state.isEmpty, !request.clientID.isEmpty,
        callers.contains(request.redirectURI)
    else { fail("accepted request breaks its checks", text) }
    guard let url = try? request.url(idpAppURI: idpAppURI),
        let again = try? IdPAppRequest(url: url, idpAppURI: idpAppURI, callerRedirectURIs: callers),
        let pairs = try? IdPAppRequest(parameters: request.parameters, callerRedirectURIs: callers),
        again == request, pairs == request
    else { fail("request does not round-trip", text) }
    guard let authorize = try? request.authorizationURL(authorizationEndpoint: "https://login.example.com/authorize"),
        let query = try? FormParameters(parsing: (URI(parsing: authorize).query ?? "")[...]),
        query["client_id"] == request.clientID, query["redirect_uri"] == request.redirectURI,
        query["state"] == request.state, query["code_challenge"] == request.codeChallenge,
        query["code_challenge_method"] == "S256"
    else { fail("provider URL lost the SP's values", text) }
    guard request.parameters.pairs.allSatisfy({ IdPAppRequest.names.contains($0.name) }),
        query.pairs.allSatisfy({ authorizationNames.contains($0.name) })
    else {
        fail("an unknown parameter was forwarded", text)
    }
    // The provider's redirect: the response appended to the SP's redirect URI, after its own query if any.
    guard let redirectURI = try? URI(parsing: request.redirectURI) else {
        fail("accepted redirect URI does not parse", text)
    }
    let redirect =
        request.redirectURI + (redirectURI.query == nil ? "?" : "&") + "code=c&state="
        + PercentEncoding.encode(request.state)
    guard let response = try? request.response(fromProviderRedirect: redirect, loginHost: "login.example.com"),
        response.state == request.state, response.result == .code("c")
    else { fail("own redirect refused", text) }
    guard let answer = try? response.url(redirectURI: request.redirectURI),
        let read = try? FormParameters(redirect: answer, arrivingAt: redirectURI, mismatch: ""),
        read == response.parameters
    else { fail("the response URL does not read back at the SP's redirect URI", text) }
}

private func checkResponse(
    _ accepted: AuthorizationCallback?, of index: Int,
    replay: () throws(TelenoridError) -> AuthorizationCallback, _ text: String
) {
    guard let accepted else { return }
    guard accepted.parameters["state"] == state, !accepted.code.isEmpty,
        accepted.parameters["login_host"]?.lowercased() == "login.example.com",
        accepted.parameters.pairs.allSatisfy({ IdPAppResponse.names.contains($0.name) })
    else {
        fail("accepted response breaks its checks", text)
    }
    do { _ = try replay(); fail("a response was accepted twice", text) } catch {
        guard error.kind == .consumed else { fail("replay failed as \(error.kind), not consumed", text) }
    }
    pendings[index] = buildPending(redirectURI: spRedirects[index])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdPApp(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: buffer, as: UTF8.self) ?? String(decoding: buffer, as: UTF8.self)

    // IdP side: the input as a URL, and as a query read into pairs.
    if let request = try? IdPAppRequest(url: text, idpAppURI: idpAppURI, callerRedirectURIs: callers) {
        checkRequest(request, text)
    }
    let pairs = try? FormParameters(parsing: text[...])
    if let pairs, let request = try? IdPAppRequest(parameters: pairs, callerRedirectURIs: callers) {
        checkRequest(request, text)
    }

    // IdP side: the input as the provider's redirect for a fixed accepted request, at each redirect URI.
    for pending in pendings {
        if let request = try? IdPAppRequest(pending: pending, loginHost: nil, userHint: nil),
            let response = try? request.response(fromProviderRedirect: text, loginHost: "login.example.com"),
            response.state != state
        {
            fail("provider redirect accepted with another state", text)
        }
    }

    // SP side: the input as the IdP app's response, URL and pairs, at each redirect URI.
    for index in pendings.indices {
        let pending = pendings[index]
        let viaURL = try? pending.handleIdPAppResponse(url: text, allowedLoginHosts: [])
        checkResponse(
            viaURL, of: index,
            replay: { () throws(TelenoridError) in
                try pending.handleIdPAppResponse(url: text, allowedLoginHosts: [])
            }, text)
    }
    if let pairs {
        let pending = pendings[0]
        let viaPairs = try? pending.handleIdPAppResponse(parameters: pairs, allowedLoginHosts: ["LOGIN.example.com"])
        checkResponse(
            viaPairs, of: 0,
            replay: { () throws(TelenoridError) in
                try pending.handleIdPAppResponse(parameters: pairs, allowedLoginHosts: ["LOGIN.example.com"])
            }, text)
    }
    return 0
}
