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

private let issuer = SignedTokens.issuer
private let now = SignedTokens.now

private let logout: BackchannelLogout = {
    guard let client = SignedTokens.client("rp") else { fatalError("fuzz_logout_token: no client") }
    return BackchannelLogout(client: client)
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_logout_token: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogoutToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let made = SignedTokens.input(data, size, header: #"{"alg":"ES256","kid":"k1","typ":"logout+jwt"}"#) else {
        return 0
    }
    let (mode, input, token, payload) = (made.mode, made.input, made.token, made.payload)
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
