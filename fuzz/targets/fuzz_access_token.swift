// libFuzzer target: a JWT access token (RFC 9068) checked by `ResourceServer.verifyAccessToken` against an
// in-memory provider whose key set holds one ES256 key. The first byte picks what the rest is: 0 the token as
// a resource server receives it; 1 a JWS header, a NUL and a payload, which the harness signs with the
// provider's key under that header (so the checks past the signature are reached); 2 a payload signed under
// the header an RFC 9068 provider writes. Properties beyond not crashing: every refusal is `.tokenInvalid`;
// an accepted token was signed by the harness (never a token taken as it came), has typ at+jwt (any case, with
// or without application/), alg ES256, the provider's issuer, the resource server's audience, an exp not
// passed beyond the tolerance, no nbf or iat in the future, and the claims RFC 9068 §2.2 requires; its claims
// are the payload's.
@testable import TelenoridCore

private let issuer = SignedTokens.issuer
private let audience = "https://rs.example.com/"
private let now = SignedTokens.now

private let server: ResourceServer = {
    guard let client = SignedTokens.client("rs"), let server = try? ResourceServer(client: client, audience: audience)
    else { fatalError("fuzz_access_token: no resource server") }
    return server
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_access_token: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccessToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let made = SignedTokens.input(data, size, header: #"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#) else {
        return 0
    }
    let (mode, input, token, payload) = (made.mode, made.input, made.token, made.payload)
    let info: TokenInfo
    do { info = try server.verifyAccessToken(SecretBytes(Array(token.utf8))) } catch {
        guard error.kind == .tokenInvalid else { fail("refused as \(error.kind): \(error.message)", input) }
        return 0
    }
    guard mode != 0 else { fail("a token not signed by the provider's key was accepted", input) }
    guard let jws = try? JWS(compact: token), jws.algorithm == "ES256" else { fail("accepted with another alg", input) }
    let typ = jws.header["typ"]?.stringValue.map { ASCII.lowercased($0) }
    guard typ == "at+jwt" || typ == "application/at+jwt" else { fail("accepted with typ \(typ ?? "none")", input) }
    guard let claims = try? JSON.parse(payload).objectValue, claims == info.claims else {
        fail("the claims are not the payload's", input)
    }
    guard info.string("iss") == issuer, info.audiences.contains(audience) else { fail("issuer or audience", input) }
    let tolerance = server.client.configuration.clockToleranceSeconds
    guard let exp = info.seconds("exp"), exp > now - tolerance else { fail("expired or no exp", input) }
    if let nbf = info.seconds("nbf"), nbf > now + tolerance { fail("nbf in the future", input) }
    guard let iat = info.seconds("iat"), iat <= now + tolerance else { fail("iat missing or in the future", input) }
    for name in ["sub", "client_id", "jti"] where info.string(name) == nil { fail("no \(name)", input) }
    return 0
}
