// libFuzzer target: a back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.4, §2.6) checked by
// `BackchannelLogout.validate` against an in-memory provider whose key set holds one ES256 key. The first byte
// picks what the rest is: 0 the token as the client's backchannel_logout_uri receives it; 1 a JWS header, a NUL
// and a payload, which the harness signs with the provider's key under that header (so the checks past the
// signature are reached); 2 a payload signed under the header a provider writes (typ logout+jwt). Properties
// beyond not crashing: every refusal is `.tokenInvalid`; an accepted token was signed by the harness (never a
// token taken as it came), has alg ES256, a typ (when present) of logout+jwt or JWT, the provider's issuer, the
// client in aud, an iat within the window, no exp passed, a jti, the back-channel logout event as an object,
// a sub or a sid, no nonce, and claims equal to its payload; the same token again is refused as a replay; and
// it names the ID-token claims made of its own iss, sub and sid.
@testable import TelenoridCore

private let issuer = "https://id.example.com"
private let now: Int64 = 1_700_000_000

private let key: DPoPKey = {
    guard let key = try? DPoPKey.generate(algorithm: "ES256") else { fatalError("fuzz_logout_token: no key") }
    return key
}()

private final class Provider: HTTPTransport, Sendable {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        let body: String
        switch request.url {
        case issuer + "/.well-known/openid-configuration":
            body = #"{"issuer":"\#(issuer)","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks"}"#
        case issuer + "/jwks":
            var jwk = key.publicJWK
            jwk.set("kid", .string("k1"))
            body = #"{"keys":[\#(JSON.serialize(.object(jwk)))]}"#
        default:
            return HTTPResponse(status: 404, headers: [], body: [])
        }
        return HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: Array(body.utf8))
    }
}

private let logout: BackchannelLogout = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "rp"
    guard let configuration = try? ClientConfiguration(settings),
        let client = try? OIDCClient(configuration: configuration, transport: Provider(), clock: { now })
    else { fatalError("fuzz_logout_token: no client") }
    return BackchannelLogout(client: client)
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_logout_token: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

private func signed(header: [UInt8], payload: [UInt8]) -> String? {
    let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    guard let signature = try? JWS.signature(over: input, key: key.privateKey) else { return nil }
    return input + "." + Base64URL.encode(signature)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogoutToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0] % 3
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let token: String
    var payload: [UInt8] = []
    switch mode {
    case 0:
        token = String(decoding: input, as: UTF8.self)
    case 1:
        guard let nul = input.firstIndex(of: 0) else { return 0 }
        payload = Array(input[(nul + 1)...])
        guard let made = signed(header: Array(input[..<nul]), payload: payload) else { return 0 }
        token = made
    default:
        payload = input
        guard let made = signed(header: Array(#"{"alg":"ES256","kid":"k1","typ":"logout+jwt"}"#.utf8), payload: payload)
        else { return 0 }
        token = made
    }
    let accepted: LogoutToken
    do { accepted = try logout.validate(token) } catch {
        guard error.kind == .tokenInvalid else { fail("refused as \(error.kind): \(error.message)", input) }
        return 0
    }
    guard mode != 0 else { fail("a token not signed by the provider's key was accepted", input) }
    guard let jws = try? JWS(compact: token), jws.algorithm == "ES256" else { fail("accepted with another alg", input) }
    if let typ = jws.header["typ"] {
        let lowered = typ.stringValue.map { ASCII.lowercased($0) }
        guard lowered == "logout+jwt" || lowered == "application/logout+jwt" || lowered == "jwt" else {
            fail("accepted with typ \(JSON.serialize(typ))", input)
        }
    }
    guard let claims = try? JSON.parse(payload).objectValue, claims == accepted.claims else {
        fail("the claims are not the payload's", input)
    }
    guard accepted.issuer == issuer else { fail("another issuer", input) }
    let audiences = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.stringArrayValue ?? []
    guard audiences.contains("rp") else { fail("not for this client", input) }
    let tolerance = logout.client.configuration.clockToleranceSeconds
    guard let iat = OIDCClient.seconds(claims["iat"]), iat <= now + tolerance,
        iat >= now - BackchannelLogout.defaultMaxAge - tolerance
    else { fail("iat missing or out of the window", input) }
    if let exp = claims["exp"], (OIDCClient.seconds(exp) ?? Int64.min) <= now - tolerance { fail("expired", input) }
    guard accepted.tokenID?.isEmpty == false else { fail("no jti", input) }
    guard claims["events"]?[BackchannelLogout.event]?.objectValue != nil else { fail("no logout event", input) }
    guard accepted.subject != nil || accepted.sessionID != nil else { fail("neither sub nor sid", input) }
    guard claims["nonce"] == nil else { fail("a nonce", input) }
    do {
        _ = try logout.validate(token)
        fail("a replay was accepted", input)
    } catch {
        guard error.kind == .tokenInvalid, error.message.contains("received before") else {
            fail("a replay refused as \(error.message)", input)
        }
    }
    var idToken = JSONObject()
    idToken.set("iss", .string(issuer))
    if let sub = accepted.subject { idToken.set("sub", .string(sub)) }
    if let sid = accepted.sessionID { idToken.set("sid", .string(sid)) }
    guard accepted.names(idTokenClaims: idToken) else { fail("does not name its own session", input) }
    return 0
}
