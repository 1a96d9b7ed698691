// libFuzzer target: the SP app's reading of an IdP-initiated sign-in message (Salesforce Mobile SDK identity
// provider's `user_hint` loop-back), as a URL on the SP app's URI and as the same query's pairs.
//
// Properties beyond not crashing (a violation traps):
//  - an accepted message has a user_hint of 1 to 255 printable ASCII bytes and a login_host that is a host
//    or host:port (the check the IdP-app request uses), both taken from the input's own pairs;
//  - URL and pairs forms of the same query agree (a query without "#": in a URL that starts the fragment,
//    RFC 3986 §3.5, while a bundle's value may hold one);
//  - the IdP side makes the same message from the values (no check refuses what the SP accepted), and it
//    reads back to the same values; unknown input names never reach it;
//  - the values loop back into an SP request for a fixed pending authorization and from there into the
//    provider URL as login_hint.
@testable import TelenoridCore

private let spAppURI = "com.example.sp://idp-initiated"

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_idp_initiation: \(what); input: \(input.prefix(512))")
}

private func buildPending() -> PendingAuthorization {
    do {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://login.example.com"
        settings[.clientID] = "sp-app"
        settings[.redirectURI] = "com.example.sp:/oauth2redirect"
        settings[.authorizationEndpoint] = "https://login.example.com/authorize"
        return try AuthorizationRequest(configuration: ClientConfiguration(settings)).build()
    } catch {
        fatalError("fuzz_idp_initiation: the fixed pending authorization can't be built: \(error.message)")
    }
}

nonisolated(unsafe) private let pending = buildPending()

private func check(_ read: (userHint: String, loginHost: String), _ pairs: FormParameters?, _ text: String) {
    guard (1...255).contains(read.userHint.utf8.count), read.userHint.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
    else { fail("accepted a hint that is not 1-255 printable ASCII", text) }
    guard (try? IdPAppRequest.checkLoginHost(read.loginHost)) != nil else { fail("accepted a bad login host", text) }
    if let pairs, pairs["user_hint"] != read.userHint || pairs["login_host"] != read.loginHost {
        fail("values are not the input's", text)
    }
    guard let made = try? IdPAppInitiation.parameters(userHint: read.userHint, loginHost: read.loginHost),
        made.pairs.map(\.name) == ["user_hint", "login_host"],
        let url = try? IdPAppInitiation.url(spAppURI: spAppURI, userHint: read.userHint, loginHost: read.loginHost),
        let again = try? IdPAppInitiation.read(url: url, spAppURI: spAppURI),
        again == read
    else { fail("the IdP side does not make the message the SP accepted, or it does not read back", text) }
    guard let request = try? IdPAppRequest(pending: pending, loginHost: read.loginHost, userHint: read.userHint),
        let authorize = try? request.authorizationURL(authorizationEndpoint: "https://login.example.com/authorize"),
        let query = try? FormParameters(parsing: (URI(parsing: authorize).query ?? "")[...]),
        query["login_hint"] == read.userHint
    else { fail("the hint does not loop back into the provider URL", text) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdPInitiation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    let viaURL = try? IdPAppInitiation.read(url: text, spAppURI: spAppURI)
    if let viaURL { check(viaURL, nil, text) }
    let pairs = try? FormParameters(parsing: text[...])
    if let pairs, let viaPairs = try? IdPAppInitiation.read(pairs) {
        check(viaPairs, pairs, text)
        if !text.utf8.contains(UInt8(ascii: "#")),
            let viaURL = try? IdPAppInitiation.read(url: spAppURI + "?" + text, spAppURI: spAppURI), viaURL != viaPairs
        {
            fail("URL and pairs forms disagree", text)
        }
    }
    return 0
}
