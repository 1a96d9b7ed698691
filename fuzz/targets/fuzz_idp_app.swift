// libFuzzer target: both parsers of the IdP-app flow (seed 003) — the IdP app's reading of an SP's request
// (URL on the IdP app's scheme, and the same query as key-value pairs) and the SP's reading of the IdP
// app's response (URL on its redirect URI, and as pairs) — plus the IdP side's reading of the provider's
// redirect for a request it accepted.
//
// Properties beyond not crashing (a violation traps):
//  - an accepted request has a 43-character base64url challenge, a redirect URI that is one of the
//    caller's, a non-empty state and client id; it re-parses from its own URL and pairs to an equal request;
//  - its provider URL carries the SP's client id, redirect URI, state and S256 challenge;
//  - an accepted provider redirect gives a response with the request's state that the SP reads back
//    (unless the provider sent an error);
//  - an accepted SP response carries the pending request's state and an allowed login host, consumes the
//    request once, and the same response then fails as consumed.
@testable import TelenoridCore

private let idpAppURI = "idpapp://authorize"
private let callers = ["com.example.sp:/oauth2redirect", "https://sp.example.com/cb"]
private let state = "218gz18yveu1ybajwh2g1h3g"

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_idp_app: \(what); input: \(input.prefix(512))")
}

private func buildPending() -> PendingAuthorization {
    do {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://login.example.com"
        settings[.clientID] = "sp-app"
        settings[.redirectURI] = callers[0]
        settings[.authorizationEndpoint] = "https://login.example.com/authorize"
        return try AuthorizationRequest(configuration: ClientConfiguration(settings))
            .build(state: state, nonce: "n", pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    } catch {
        fatalError("fuzz_idp_app: the fixed pending authorization can't be built: \(error.message)")
    }
}

nonisolated(unsafe) private var pending = buildPending()

private func checkRequest(_ request: IdPAppRequest, _ text: String) {
    guard request.codeChallenge.utf8.count == 43, !request.state.isEmpty, !request.clientID.isEmpty,
          callers.contains(request.redirectURI) else { fail("accepted request breaks its checks", text) }
    guard let url = try? request.url(idpAppURI: idpAppURI),
          let again = try? IdPAppRequest(url: url, idpAppURI: idpAppURI, callerRedirectURIs: callers),
          let pairs = try? IdPAppRequest(parameters: request.parameters, callerRedirectURIs: callers),
          again == request, pairs == request else { fail("request does not round-trip", text) }
    guard let authorize = try? request.authorizationURL(authorizationEndpoint: "https://login.example.com/authorize"),
          let query = try? FormParameters(parsing: (URI(parsing: authorize).query ?? "")[...]),
          query["client_id"] == request.clientID, query["redirect_uri"] == request.redirectURI,
          query["state"] == request.state, query["code_challenge"] == request.codeChallenge,
          query["code_challenge_method"] == "S256" else { fail("provider URL lost the SP's values", text) }
    // The provider's redirect: the input's own query appended to the SP's redirect URI.
    let redirect = request.redirectURI + "?code=c&state=" + PercentEncoding.encode(request.state)
    guard let response = try? request.response(fromProviderRedirect: redirect, loginHost: "login.example.com"),
          response.state == request.state, response.result == .code("c") else { fail("own redirect refused", text) }
}

private func checkResponse(_ accepted: AuthorizationResponse?, replay: () throws(TelenoridError) -> AuthorizationResponse, _ text: String) {
    guard let accepted else { return }
    guard accepted.parameters["state"] == state, !accepted.code.isEmpty,
          accepted.parameters["login_host"]?.lowercased() == "login.example.com" else {
        fail("accepted response breaks its checks", text)
    }
    do { _ = try replay(); fail("a response was accepted twice", text) } catch {
        guard error.kind == .consumed else { fail("replay failed as \(error.kind), not consumed", text) }
    }
    pending = buildPending()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdPApp(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: buffer, as: UTF8.self) ?? String(decoding: buffer, as: UTF8.self)

    // IdP side: the input as a URL, and as a query read into pairs.
    if let request = try? IdPAppRequest(url: text, idpAppURI: idpAppURI, callerRedirectURIs: callers) { checkRequest(request, text) }
    let pairs = try? FormParameters(parsing: text[...])
    if let pairs, let request = try? IdPAppRequest(parameters: pairs, callerRedirectURIs: callers) { checkRequest(request, text) }

    // IdP side: the input as the provider's redirect for a fixed accepted request.
    if let request = try? IdPAppRequest(pending: pending, loginHost: nil, userHint: nil),
       let response = try? request.response(fromProviderRedirect: text, loginHost: "login.example.com"),
       response.state != state {
        fail("provider redirect accepted with another state", text)
    }

    // SP side: the input as the IdP app's response, URL and pairs.
    let viaURL = try? pending.handleIdPAppResponse(url: text, allowedLoginHosts: [])
    checkResponse(viaURL, replay: { () throws(TelenoridError) in try pending.handleIdPAppResponse(url: text, allowedLoginHosts: []) }, text)
    if let pairs {
        let viaPairs = try? pending.handleIdPAppResponse(parameters: pairs, allowedLoginHosts: ["LOGIN.example.com"])
        checkResponse(viaPairs, replay: { () throws(TelenoridError) in
            try pending.handleIdPAppResponse(parameters: pairs, allowedLoginHosts: ["LOGIN.example.com"])
        }, text)
    }
    return 0
}
