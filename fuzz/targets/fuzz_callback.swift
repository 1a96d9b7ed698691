// libFuzzer target: every parser a redirect goes through — URI, form parameters, the authorization
// callback and the app-to-app callback — on one pending authorization (rebuilt when a valid callback
// consumes it).
nonisolated(unsafe) private var pending: PendingAuthorization? = nil

private func freshPending() -> PendingAuthorization? {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "client"
    settings[.redirectURI] = "merchantapp://redirect-uri"
    settings[.authorizationEndpoint] = "https://api.vipps.no/oauth2/auth"
    guard let configuration = try? ClientConfiguration(settings), let pkce = try? PKCE(length: 43) else { return nil }
    var request = AuthorizationRequest(configuration: configuration)
    try? request.setAppToApp(callbackURI: "merchantapp://app-callback")
    return try? request.build(state: "218gz18yveu1ybajwh2g1h3g", nonce: "n", pkce: pkce)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCallback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    if pending == nil || pending?.isConsumed == true { pending = freshPending() }
    guard let pending else { return 0 }
    _ = try? URI(parsing: text)
    _ = try? FormParameters(parsing: text[...])
    _ = try? pending.handleAppCallback(text, allowedResumeHost: nil)
    _ = try? pending.handleCallback(text)
    return 0
}
