// libFuzzer target: everything the provider (or storage) sends back — discovery documents, key sets,
// compact JWS, token and error responses (with Retry-After), ID token claims, response header lines, a
// serialized auth state and a state file, WWW-Authenticate challenges, base64url and percent-encoded text,
// request URLs (our parser against libcurl's), pushed authorization responses — and a whole code exchange over an
// in-memory transport.
//
// The first byte picks the parser (mod 15), the rest is its input. Inputs for the ID token modes are
// claims that the harness signs with HS256 and the client's secret, so the fuzzer reaches the claim
// checks behind the signature; in the token response of mode 9, an `id_token` given as a JSON object is
// signed the same way. Properties beyond not crashing (a violation traps) are listed per mode.
@testable import TelenoridCore
import CCurl

private let now: Int64 = 1_700_000_000
private let issuer = "https://id.example.com"
private let secret = "fuzz-client-secret"

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_provider: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

private let fixtureKeySet = #"""
    {"keys":[
    {"kty": "RSA", "kid": "rsa-1", "use": "sig", "n": "n0W_4k1FQ4ZIH1pswo65AHZR8waw9GePLs43P1jsG5OvRPsJPqK-wz-lATHupYOsmMeKTQwQjS3nX1DI1zern6O2ZOGpH8CvsLjb4D72LLGAIfgUhtzUHJaAt87ed4jMZM9zXyXBUYau_etw58dzPTx1g7DpdJZcDRUtkUHw32CeBf-cwqlcUXoQmJnMgKx2EAcWb2m7Zv7jHTL8hqZH39H7b-oRiuTGqChzlVzuy7gS6V5yt5ZFv2B0HKuhTpQl3pCYer1N6kvQINs3zDGpe_jWkaaAxVebAwhVyWpr_jHZ2_VRn0IeDFLuQqKMx0YDyY-4tCycOrecEnF6RfB_cw", "e": "AQAB"},
    {"kty": "EC", "kid": "ec-P-256", "crv": "P-256", "x": "pNHEkqNxNCp7eR80LIH7tN4Ul78-ZppLo-stIefxgZY", "y": "L9ByuEj1OkdcVWPKjsv1Owo9D0iikj-JCV9rSDWlDrc"},
    {"kty": "EC", "kid": "ec-P-384", "crv": "P-384", "x": "gliOc_4KjnuIYOo3uIwM94n4PpGePlvQX86V3VlHqTmkuvk9ZdLa1poDcd6zh2Tm", "y": "1gv4YRG5dboYoMEyQ3IXVoWZIAR_VlFiLwOTBQgRT3tzy2U5-2VN0L6AYVxqqZqn"},
    {"kty": "EC", "kid": "ec-P-521", "crv": "P-521", "x": "AR3MIm015cKWLAoCCzxiOVRxaIaLFMf2CO6Jt71BhbBpPcqA1TVliaIPirr38MA9b-ECAPyWT2ZF7P-CSO7VkIog", "y": "AUWdLtnAnVIMNQjvhPdrdYZXKGq0Q9jloe5FXzlRKC40tSctpWeipFgwncu7jURC_s_wF7JW8fr9Xo_fXJZiiTaz"},
    {"kty": "OKP", "kid": "ed-1", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
    ]}
    """#

private let fixtureKeys: [JWK] = {
    guard let set = try? JWKSet(json: Array(fixtureKeySet.utf8)), set.keys.count == 5 else {
        fatalError("fuzz_provider: the fixture key set does not load")
    }
    return set.keys
}()

/// Serves fixed answers by URL; anything else is a 404.
private final class FakeTransport: HTTPTransport {
    let answers: [String: HTTPResponse]
    init(answers: [String: HTTPResponse]) { self.answers = answers }
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        answers[request.url] ?? HTTPResponse(status: 404, headers: [], body: [])
    }
}

private func configuration(method: String) -> ClientConfiguration {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "client"
    settings[.redirectURI] = "app://cb"
    settings[.authorizationEndpoint] = "\(issuer)/authorize"
    settings[.tokenEndpoint] = "\(issuer)/token"
    settings[.userinfoEndpoint] = "\(issuer)/userinfo"
    settings[.jwksURI] = "\(issuer)/jwks"
    settings[.revocationEndpoint] = "\(issuer)/revoke"
    settings[.endSessionEndpoint] = "\(issuer)/logout"
    settings[.clientSecret] = secret
    settings[.clientAuthMethod] = method
    settings[.trustedAudiences] = "other-client"
    settings[.idTokenAlgorithms] = "HS256 HS512 RS256 PS256 ES256 ES384 ES512 EdDSA"
    do { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_provider: fixed configuration refused: \(error.message)")
    }
}

private let basicConfiguration = configuration(method: "client_secret_basic")
private let discoveryConfiguration: ClientConfiguration = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "client"
    settings[.redirectURI] = "app://cb"
    do throws(TelenoridError) { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_provider: discovery configuration refused: \(error.message)")
    }
}()
private let jwtConfiguration = configuration(method: "client_secret_jwt")

private func client(_ answers: [String: HTTPResponse] = [:], jwt: Bool = false) -> OIDCClient {
    var all = answers
    all["\(issuer)/jwks"] = HTTPResponse(
        status: 200, headers: [("content-type", "application/json")], body: Array(fixtureKeySet.utf8))
    do {
        return try OIDCClient(
            configuration: jwt ? jwtConfiguration : basicConfiguration, transport: FakeTransport(answers: all),
            clock: { now })
    } catch {
        fatalError("fuzz_provider: client refused: \(error.message)")
    }
}

private func signed(_ claims: [UInt8], algorithm: String = "HS256") -> String {
    do { return try JWS.sign(payload: claims, algorithm: algorithm, hmacSecret: Array(secret.utf8)) } catch {
        fatalError("fuzz_provider: HMAC signing failed: \(error.message)")
    }
}

// MARK: Modes

/// 0: a discovery document. Accepted metadata names the expected issuer, only secure endpoints, is a
/// fixed point of filling from itself, and is what a client discovers when served that document.
private func discovery(_ input: [UInt8]) {
    guard let metadata = try? ProviderMetadata(json: input, expectedIssuer: issuer) else { return }
    guard metadata.issuer == issuer else { fail("metadata accepted for another issuer", input) }
    for endpoint in metadata.endpoints.values {
        guard let uri = try? URI(parsing: endpoint), uri.isSecureEndpoint else {
            fail("metadata accepted insecure endpoint \(endpoint)", input)
        }
    }
    guard metadata.filling(from: metadata) == metadata else { fail("filling from itself changed the metadata", input) }
    // Discovery through a client that configures no endpoint: the document served as both the OIDC and
    // the RFC 8414 one, then the configuration completed from it.
    let document = HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: input)
    let oidc: OIDCClient
    do {
        oidc = try OIDCClient(
            configuration: discoveryConfiguration,
            transport: FakeTransport(answers: [
                "\(issuer)/.well-known/openid-configuration": document,
                "\(issuer)/.well-known/oauth-authorization-server": document
            ]), clock: { now })
    } catch {
        fatalError("fuzz_provider: client refused: \(error.message)")
    }
    guard let discovered = try? oidc.discover() else { fail("a document that parses was not discovered", input) }
    guard discovered == metadata else { fail("discovery merged the document with itself into another", input) }
    if let effective = try? oidc.effectiveConfiguration() {
        guard metadata.endpoints.allSatisfy({ effective.settings[$0.key] == $0.value }) else {
            fail("the effective configuration does not take the discovered endpoints", input)
        }
    }
}

/// 1: a key set. No key it yields claims `none` or HMAC; each tries the fixture tokens it fits.
private let fixtureTokens: [JWS] = [
    "eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiAiaHR0cHM6Ly9pZC5leGFtcGxlLmNvbSIsICJzdWIiOiAiYWxpY2UiLCAiYXVkIjogImNsaWVudCJ9.JBV-GWW7k6pliohCsrJ8Y2SqitCKqsN57G0CgvRJxx-hlMMvoujmFsLal9SP4ZfqwzQCCCF7O-Zz_uxxrjX1MbzSQxafUCdYQ6lNLo_VgfYToducgQFchyy4xUSFJhLJsbnZ1yFBzcNGrQgDabjpCMWXqfhQ0OjjXKX6P4j9wgNzz9PwJ5YovPm7e_DReR3bXidk2iBK2EISzZ9q8giBnceOxgFxXOWONGnUQt2q3P__LFBdqBDgL0bkqskS0xLu2Bireh1iI0GJisQiWFFysRhrHXqoLsobdquX6ihNIAwvuoyPBtfKE4XOt8Y9bj1ff0ZLreUc4aFtCBMF5Xudpw",
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLVAtMjU2IiwidHlwIjoiSldUIn0.eyJpc3MiOiAiaHR0cHM6Ly9pZC5leGFtcGxlLmNvbSIsICJzdWIiOiAiYWxpY2UiLCAiYXVkIjogImNsaWVudCJ9.u-PxcGPHGgkO6ibE5PAAwb-XS4KmDwvT9dvYczlG7dW196AnIp_kS1Nsz0YNTA_NP8uR1QoiH-WkQE1OSNCdZQ",
    "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
].map { token in
    guard let jws = try? JWS(compact: token) else { fatalError("fuzz_provider: fixture token does not parse") }
    return jws
}

private func keySet(_ input: [UInt8]) {
    guard let set = try? JWKSet(json: input) else { return }
    for key in set.keys.prefix(4) {
        if key.canVerify(algorithm: "none") || key.canVerify(algorithm: "HS256") {
            fail("a JWK claims it can verify none or HS256", input)
        }
        for token in fixtureTokens where key.canVerify(algorithm: token.algorithm) {
            _ = try? token.verify(with: key)
        }
    }
}

/// 3: a compact JWS. Accepted tokens keep their header's alg and kid, their payload is the second part
/// decoded and their signing input the first two; then every fixture key, the secret and the client's
/// allow-list and key cache try them.
private func compactJWS(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    guard let jws = try? JWS(compact: text) else { return }
    guard jws.header["alg"]?.stringValue == jws.algorithm, jws.header["kid"]?.stringValue == jws.keyID else {
        fail("JWS fields disagree with its header", input)
    }
    let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3, Base64URL.encode(jws.payload) == String(decoding: parts[1], as: UTF8.self),
        jws.signingInput.withUnsafeBytes({ $0.elementsEqual(text.utf8.prefix(parts[0].count + 1 + parts[1].count)) })
    else {
        fail("JWS payload or signing input is not the token's", input)
    }
    for key in fixtureKeys {
        _ = try? jws.verify(with: key)
    }
    _ = try? jws.verify(hmacSecret: Array(secret.utf8))
    if (try? jws.verify(hmacSecret: [])) != nil, jws.algorithm.hasPrefix("HS") == false {
        fail("a non-HMAC JWS verified as HMAC", input)
    }
    // Through the client: the allow-list, the key cache (fetching the fixture set), the claims.
    _ = try? client().verifySignedUserinfo(text)
}

private let statuses = [200, 400, 401, 403, 404, 429, 500, 503, 302]

/// 2: a successful token response body. A parsed one has a non-empty access token without NUL, a Bearer or
/// DPoP type (RFC 6749 §7.1: nothing this client does not understand; RFC 9449 §5) and a non-negative
/// lifetime, and its
/// expiry is not before its receipt.
private func tokenResponse(_ input: [UInt8]) {
    let response = HTTPResponse(status: 200, headers: [], body: input)
    guard
        let (object, secrets) = try? OAuthErrorResponse.jsonObject(
            from: response, during: "fuzz", now: now,
            secretMembers: TokenResponse.secretMembers),
        let tokens = try? TokenResponse(object, secrets: secrets)
    else { return }
    guard tokens.accessToken.count > 0, !tokens.accessToken.bytes.contains(0),
        tokens.refreshToken?.bytes.contains(0) != true,
        ["bearer", "dpop"].contains(ASCII.lowercased(tokens.tokenType)), (tokens.expiresIn ?? 0) >= 0
    else {
        fail("token response accepted with an unusable access token, type or lifetime", input)
    }
    let set = TokenSet(response: tokens, receivedAt: now, previous: nil)
    if let expiry = set.accessTokenExpiresAt, expiry < now {
        fail("access token expires before it was received", input)
    }
    _ = set.expires(within: 60, now: now)
}

/// 4: an error answer: status from the first byte, an optional Retry-After (after the second byte's worth of
/// header text), then the body. The status decides before the body: 5xx, 429 and 3xx are never a verdict,
/// an OAuth error keeps its code, only a 200 answer is ever taken as success, and Retry-After is read from
/// a 429 or 503 only, never over a day.
private func errorResponse(_ input: [UInt8]) {
    guard input.count >= 2 else { return }
    let headerLength = min(Int(input[1]) % 64, input.count - 2)
    let retryAfter = String(decoding: input[2..<2 + headerLength], as: UTF8.self)
    let response = HTTPResponse(
        status: statuses[Int(input[0]) % statuses.count], headers: [("retry-after", retryAfter)],
        body: Array(input.dropFirst(2 + headerLength)))
    let error = OAuthErrorResponse.error(from: response, during: "fuzz", now: now)
    let status = response.status
    if (status >= 500 || status == 429 || (300..<400).contains(status)) != (error.kind == .temporarilyUnavailable) {
        fail("status \(status) judged as \(error.kind)", input)
    }
    if [.authorizationError, .clientRejected].contains(error.kind) && error.oauthError == nil {
        fail("an OAuth error without its error code", input)
    }
    if error.httpStatus != status { fail("an error lost its HTTP status", input) }
    if let wait = error.retryAfterSeconds,
        !(status == 429 || status == 503) || !(0...RetryAfter.maximumSeconds).contains(wait)
    {
        fail("Retry-After \(wait) read from a \(status)", input)
    }
    if (try? OAuthErrorResponse.jsonObject(from: response, during: "fuzz", now: now)) != nil, status != 200 {
        fail("a non-200 answer was taken as success", input)
    }
    // A refresh refused by this answer signs out only on a 4xx verdict about the grant.
    let verdict = OIDCClient.refreshVerdict(error)
    if verdict.kind == .authorizationLost && !(400..<500).contains(status) {
        fail("a \(status) signed the user out", input)
    }
}

/// 11: a WWW-Authenticate header value. Schemes and parameter names come out as lower-case tokens.
private func challenges(_ input: [UInt8]) {
    for challenge in AuthenticationChallenge.parse(String(decoding: input, as: UTF8.self)) {
        for name in [challenge.scheme] + challenge.parameters.map(\.name)
        where name.isEmpty || ASCII.lowercased(name) != name {
            fail("challenge name \(name) is not a lower-case token", input)
        }
    }
}

/// 12: a Retry-After value on its own: never negative, never over a day.
private func retryAfter(_ input: [UInt8]) {
    if let wait = RetryAfter.seconds(String(decoding: input, as: UTF8.self), now: now),
        !(0...RetryAfter.maximumSeconds).contains(wait)
    {
        fail("Retry-After gave \(wait)", input)
    }
}

/// 13: a state file as another process (or a disk) left it: opening it never crashes, and a state it opens
/// signed in holds exactly the tokens the serialized form says.
private let stateFile = "/tmp/telenorid-fuzz-state-\(getpid()).json"

private func stateFileContents(_ input: [UInt8]) {
    guard let file = try? AuthStateFile(path: stateFile) else { return }
    unlink(stateFile)
    let descriptor = open(stateFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return }
    _ = input.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    guard let state = try? client().openAuthState(file), let tokens = state.tokens else { return }
    guard let saved = try? AuthState.tokens(fromSerialized: SecretBytes(input)).tokens,
        saved.accessToken.bytes == tokens.accessToken.bytes, saved.refreshToken?.bytes == tokens.refreshToken?.bytes
    else {
        fail("a state file opened to other tokens than it holds", input)
    }
}

/// 5: a serialized auth state. What restores serializes and restores again to the same state and text;
/// a client restores only a state saved for its issuer and client id.
private final class NoRefresh: TokenRefresher {
    func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet {
        throw TelenoridError(.notSignedIn, "no refresh in the harness")
    }
    func revokeGrant(_ tokens: TokenSet) throws(TelenoridError) {}
    func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner {
        throw TelenoridError(.configuration, "no host-held key in the harness")
    }
}

private func authState(_ input: [UInt8]) {
    let text = SecretBytes(input)
    guard let saved = try? AuthState.tokens(fromSerialized: text) else { return }
    // A client restores only states saved for its own issuer and client id (or for nobody in particular).
    if (try? client().restoreAuthState(text)) != nil {
        guard saved.issuer == nil || saved.issuer == issuer, saved.clientID == nil || saved.clientID == "client" else {
            fail("an auth state saved for another issuer or client was restored", input)
        }
    }
    guard let tokens = saved.tokens else { return }
    let state = AuthState(
        tokens: tokens, refresher: NoRefresh(), clock: { now }, refreshMarginSeconds: 60,
        issuer: saved.issuer, clientID: saved.clientID)
    let serialized = state.serialized()
    guard let again = try? AuthState.tokens(fromSerialized: serialized), let restored = again.tokens else {
        fail("serialized auth state does not restore: \(serialized.string.prefix(512))", input)
    }
    guard again.issuer == saved.issuer, again.clientID == saved.clientID,
        restored.accessToken.bytes == tokens.accessToken.bytes, restored.tokenType == tokens.tokenType,
        restored.accessTokenExpiresAt == tokens.accessTokenExpiresAt,
        restored.refreshToken?.bytes == tokens.refreshToken?.bytes,
        restored.idToken == tokens.idToken, restored.idTokenClaims == tokens.idTokenClaims,
        restored.scope == tokens.scope
    else {
        fail("restored auth state differs: \(serialized.string.prefix(512))", input)
    }
    let state2 = AuthState(
        tokens: restored, refresher: NoRefresh(), clock: { now }, refreshMarginSeconds: 60,
        issuer: again.issuer, clientID: again.clientID)
    guard state2.serialized().bytes == serialized.bytes else { fail("auth state serialization is not stable", input) }
    _ = try? state.freshTokens()
}

/// 6: ID token claims, signed by the harness. Accepted claims name the configured issuer, include the
/// client among the audiences (and only trusted others), are not expired, and carry the nonce asked for.
private func idToken(_ input: [UInt8]) {
    guard let flags = input.first else { return }
    let claims = Array(input.dropFirst())
    let token = signed(claims, algorithm: flags & 8 == 0 ? "HS256" : "HS512")
    var expectations = IDTokenExpectations()
    if flags & 1 != 0 { expectations.nonce = "n" }
    if flags & 2 != 0 { expectations.maxAge = 300 }
    if flags & 4 != 0 { expectations.accessToken = SecretBytes(Array("access-token".utf8)) }
    if flags & 16 != 0,
        case .object(let previous)? = try? JSON.parse(
            #"{"iss":"https://id.example.com","sub":"alice","aud":"client","auth_time":1699999900,"nonce":"n"}"#)
    {
        expectations.previous = previous
    }
    let oidc = client()
    if let accepted = try? oidc.validateIDToken(token, expectations: expectations) {
        guard case .object(let parsed)? = try? JSON.parse(claims), parsed == accepted else {
            fail("accepted claims are not the token's", input)
        }
        guard accepted["iss"]?.stringValue == issuer else { fail("ID token accepted from another issuer", input) }
        guard let sub = accepted["sub"]?.stringValue, !sub.isEmpty else { fail("ID token accepted without sub", input) }
        let audiences =
            accepted["aud"]?.stringValue.map { [$0] } ?? (accepted["aud"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard audiences.contains("client"), audiences.allSatisfy({ $0 == "client" || $0 == "other-client" }) else {
            fail("ID token accepted for audiences \(audiences)", input)
        }
        guard let exp = OIDCClient.seconds(accepted["exp"]), exp > now - basicConfiguration.clockToleranceSeconds else {
            fail("expired ID token accepted", input)
        }
        if expectations.nonce != nil, accepted["nonce"]?.stringValue != "n" {
            fail("ID token accepted without the nonce", input)
        }
        if let previous = expectations.previous, previous["sub"] != accepted["sub"] {
            fail("refreshed ID token for another subject accepted", input)
        }
    }
    _ = try? oidc.verifySignedUserinfo(token)
}

/// 7: response header lines (split after each LF) through the transport's header callback, then what
/// is left after an empty line as the body. Names come out as lower-case tokens; the content type has no
/// upper-case ASCII and no surrounding whitespace; the body is kept whole.
private func headers(_ input: [UInt8]) {
    let sink = ResponseSink(maxBody: 1 << 20, maxHeaders: 64 << 10)
    var rest = input[...]
    var body: ArraySlice<UInt8> = []
    while !rest.isEmpty {
        let end = rest.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? rest.endIndex
        var line = Array(rest[..<end])
        rest = rest[end...]
        let taken = line.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sink.receiveHeader($0, 1, buffer.count)
            }
        }
        guard taken == line.count || sink.exceeded == .headers else {
            fail("header callback refused a line without a cap", input)
        }
        if line == [0x0A] || line == [0x0D, 0x0A] {
            body = rest
            break
        }
    }
    var copy = Array(body)
    let taken = copy.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.map { base in
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { sink.receiveBody($0, 1, buffer.count) }
        }
            ?? sink.receiveBody(nil, 1, 0)
    }
    let received = sink.takeBody()
    guard taken == body.count, received.bytes.elementsEqual(body) else { fail("body callback lost bytes", input) }
    let response = HTTPResponse(status: 200, headerBlock: sink.takeHeaderBlock(), body: received)
    for (name, _) in response.headers {
        guard !name.isEmpty,
            !name.utf8.contains(where: {
                (0x41...0x5A).contains($0) || $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F
            })
        else {
            fail("header name \(name) is not a lower-case token", input)
        }
    }
    if let type = response.contentType {
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        guard response.header("Content-Type") != nil, !type.isEmpty,
            !type.utf8.contains(where: { (0x41...0x5A).contains($0) }),
            !spaces.contains(type.utf8.first!), !spaces.contains(type.utf8.last!),
            !type.utf8.contains(UInt8(ascii: ";"))
        else {
            fail("content type \(type) not a trimmed lower-case media type", input)
        }
    }
    _ = response.header("WWW-Authenticate")
}

/// 8: base64url and percent-encoding. Base64url decoding is canonical: what decodes encodes back to the
/// same text. Percent-decoding inverts percent-encoding.
private func encodings(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    if let decoded = Base64URL.decode(text) {
        guard Base64URL.encode(decoded) == text else { fail("base64url decoding is not canonical", input) }
    }
    _ = Base64URL.encodeStandard(input)
    guard Base64URL.decode(Base64URL.encode(input)) == input else { fail("base64url round trip lost bytes", input) }
    for plus in [false, true] {
        if let decoded = PercentEncoding.decode(input[...], plusIsSpace: plus) {
            let encoded = PercentEncoding.encode(decoded)
            guard PercentEncoding.decode(Array(encoded.utf8)[...], plusIsSpace: plus) == decoded else {
                fail("percent-encoding round trip changed the text", input)
            }
        }
    }
}

/// 9: a whole code exchange: token response (before the first NUL, an object-valued id_token being signed
/// by the harness) then userinfo body (after it; with flag 1 a JSON object there is signed and served
/// as application/jwt). An exchange that succeeds gives tokens whose ID token
/// claims carry the request's nonce; the state serializes and restores; userinfo, refresh, revocation
/// and the logout URL run on the result.
private func exchange(_ input: [UInt8]) {
    guard let flags = input.first else { return }
    let rest = input.dropFirst()
    let split = rest.firstIndex(of: 0) ?? rest.endIndex
    var tokenBody = Array(rest[..<split])
    var userinfoBody = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
    if case .object(var object)? = try? JSON.parse(tokenBody), case .object(let claims)? = object["id_token"] {
        object.set("id_token", .string(signed(Array(JSON.serialize(.object(claims)).utf8))))
        tokenBody = Array(JSON.serialize(.object(object)).utf8)
    }
    let status = statuses[Int(flags >> 4) % statuses.count]
    let userinfoType = flags & 1 != 0 ? "application/jwt" : "application/json; charset=utf-8"
    // A signed userinfo response, from claims given as JSON.
    if flags & 1 != 0, case .object? = try? JSON.parse(userinfoBody) { userinfoBody = Array(signed(userinfoBody).utf8) }
    let oidc = client(
        [
            "\(issuer)/token": HTTPResponse(
                status: status, headers: [("content-type", "application/json")], body: tokenBody),
            "\(issuer)/userinfo": HTTPResponse(
                status: flags & 2 != 0 ? 401 : 200,
                headers: [("content-type", userinfoType), ("www-authenticate", "Bearer error=\"invalid_token\"")],
                body: userinfoBody),
            "\(issuer)/revoke": HTTPResponse(status: status, headers: [], body: tokenBody)
        ], jwt: flags & 4 != 0)
    let pending: PendingAuthorization
    let callback: AuthorizationCallback
    do {
        var request = AuthorizationRequest(configuration: oidc.configuration)
        if flags & 8 != 0 { try request.set(.maxAge, "300") }
        pending = try request.build(
            state: "s", nonce: "n", pkce: try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        callback = try pending.handleCallback("app://cb?code=c&state=s&iss=https%3A%2F%2Fid.example.com")
    } catch {
        fatalError("fuzz_provider: the fixed callback is refused: \(error.message)")
    }
    guard let state = try? oidc.exchangeCode(callback) else { return }
    if (try? oidc.exchangeCode(callback)) != nil { fail("a code was exchanged twice", input) }
    guard let tokens = state.tokens else { fail("exchange succeeded without tokens", input) }
    if let claims = tokens.idTokenClaims {
        guard claims["nonce"]?.stringValue == "n", claims["iss"]?.stringValue == issuer else {
            fail("exchange accepted an ID token without nonce or issuer", input)
        }
    } else if tokens.idToken != nil {
        fail("an ID token was kept without validated claims", input)
    }
    let serialized = state.serialized()
    guard let restored = try? oidc.restoreAuthState(serialized), restored.serialized().bytes == serialized.bytes else {
        fail("the exchanged auth state does not restore: \(serialized.string.prefix(512))", input)
    }
    if let info = try? oidc.userinfo(tokens) {
        guard info["sub"]?.stringValue != nil else { fail("userinfo accepted without sub", input) }
        if let expected = tokens.idTokenClaims?["sub"], info["sub"] != expected {
            fail("userinfo for another subject accepted", input)
        }
    }
    if let refreshed = try? oidc.refresh(tokens), let before = tokens.idTokenClaims?["sub"],
        let after = refreshed.idTokenClaims?["sub"], before != after
    {
        fail("refresh accepted an ID token for another subject", input)
    }
    _ = try? oidc.revoke(tokens.accessToken, hint: "access_token")
    _ = try? oidc.endSessionURL(idTokenHint: tokens.idToken, postLogoutRedirectURI: "app://bye", state: "x")
}

/// 10: a request URL through the transport's policy and libcurl's parser (first byte: plain http allowed
/// when odd). An accepted URL has no user info, the same scheme for both parsers, and is https unless
/// plain http was allowed or libcurl's host is loopback too.
private func requestURL(_ input: [UInt8]) {
    guard let flags = input.first, let text = String(validating: input.dropFirst(), as: UTF8.self) else { return }
    let allowPlainHTTP = flags & 1 != 0
    guard let target = try? RequestTarget(text, allowPlainHTTP: allowPlainHTTP) else { return }
    guard let uri = try? URI(parsing: text), uri.userInfo == nil, let host = uri.host, !host.isEmpty else {
        fail("a request URL was accepted that our parser refuses or reads with user info", input)
    }
    guard let scheme = target.url.part(CURLUPART_SCHEME), ASCII.lowercased(scheme) == uri.scheme,
        let curlHost = target.url.part(CURLUPART_HOST), !curlHost.isEmpty, target.url.part(CURLUPART_USER) == nil
    else {
        fail("libcurl reads an accepted request URL's scheme, host or user differently", input)
    }
    if uri.scheme != "https" {
        guard uri.scheme == "http" else { fail("a request URL with scheme \(uri.scheme) was accepted", input) }
        if !allowPlainHTTP {
            guard uri.isLoopback, (try? URI(parsing: "http://\(curlHost)/"))?.isLoopback == true else {
                fail("plain http accepted to a host that is not loopback for both parsers (curl: \(curlHost))", input)
            }
        }
    }
    // Messages show the display form: never the query (it may carry a code or token) nor the fragment.
    guard !target.display.contains("?"), !target.display.contains("#") else {
        fail("the display form shows the query", input)
    }
}

/// 14: a pushed authorization response (RFC 9126 §2.2): first byte the HTTP status (201, 200 or an error),
/// the rest its body. A request that is pushed gives a URL whose query is exactly client_id and the
/// request_uri the body named, at the authorization endpoint; a refusal is an error, never a URL.
private func pushedAuthorization(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let status = [201, 200, 400, 401, 500][Int(first) % 5]
    var settings = configuration(method: "client_secret_basic").settings
    settings[.pushAuthorizationRequests] = "true"
    settings[.pushedAuthorizationRequestEndpoint] = "\(issuer)/par"
    guard let config = try? ClientConfiguration(settings) else { fail("the fixture configuration is refused", input) }
    let answer = HTTPResponse(
        status: status, headers: [("content-type", "application/json")], body: Array(input.dropFirst()))
    guard
        let oidc = try? OIDCClient(
            configuration: config, transport: FakeTransport(answers: ["\(issuer)/par": answer]),
            clock: { now })
    else { fail("the client is refused", input) }
    guard let pending = try? oidc.buildAuthorization(AuthorizationRequest(configuration: config)) else { return }
    guard status == 201 || status == 200 else { fail("an HTTP \(status) push gave a URL", input) }
    guard pending.url.hasPrefix("\(issuer)/authorize?"), let uri = try? URI(parsing: pending.url),
        let query = try? FormParameters(parsing: (uri.query ?? "")[...]),
        query.pairs.map(\.name) == ["client_id", "request_uri"], query["client_id"] == "client",
        let requestURI = query["request_uri"], !requestURI.isEmpty
    else {
        fail("a pushed request's URL is not the endpoint with client_id and request_uri alone: \(pending.url)", input)
    }
    let object = try? JSON.parse(Array(input.dropFirst())).objectValue
    guard object?["request_uri"]?.stringValue == requestURI else {
        fail("the URL's request_uri is not the body's", input)
    }
}

private let modes: [([UInt8]) -> Void] = [
    discovery, keySet, tokenResponse, compactJWS, errorResponse, authState, idToken, headers, encodings, exchange,
    requestURL,
    challenges, retryAfter, stateFileContents, pushedAuthorization
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProvider(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = Int(data[0]) % modes.count
    modes[mode](Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
    return 0
}
