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

private let issuer = "https://id.example.com"
private let audience = "https://rs.example.com/"
private let now: Int64 = 1_700_000_000

private let key: DPoPKey = {
    guard let key = try? DPoPKey.generate(algorithm: "ES256") else { fatalError("fuzz_access_token: no key") }
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

private let server: ResourceServer = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "rs"
    guard let configuration = try? ClientConfiguration(settings),
        let client = try? OIDCClient(configuration: configuration, transport: Provider(), clock: { now }),
        let server = try? ResourceServer(client: client, audience: audience)
    else { fatalError("fuzz_access_token: no resource server") }
    return server
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_access_token: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

private func signed(header: [UInt8], payload: [UInt8]) -> String? {
    let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    guard let signature = try? JWS.signature(over: input, key: key.privateKey) else { return nil }
    return input + "." + Base64URL.encode(signature)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccessToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
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
        guard let made = signed(header: Array(#"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#.utf8), payload: payload)
        else { return 0 }
        token = made
    }
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
