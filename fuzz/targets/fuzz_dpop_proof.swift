// libFuzzer target: a DPoP proof (RFC 9449 §4.2) checked by `ResourceServer.verifyDPoPProof` (§4.3, §7.1) for a
// GET of https://rs.example.com/items with one access token bound to the harness's ES256 key. The first byte
// picks what the rest is: 0 the proof as the server receives it; 1 a JWS header, a NUL and a payload, which the
// harness signs with its key under that header (so the checks past the signature are reached); 2 a payload
// signed under the header DPoPProof writes (typ dpop+jwt, ES256, the key's public jwk). Properties beyond not
// crashing: every refusal is `.tokenInvalid` with the OAuth error invalid_dpop_proof (never use_dpop_nonce: no
// nonce is required here) and a rule in its description; an accepted proof was signed by the harness (never one
// taken as it came), its header has typ dpop+jwt, alg ES256 and the harness's public key, its claims have a jti,
// htm GET, an htu that normalises to the request's URL, an iat within the window and the token's ath; the same
// proof a second time is refused as a replay.
@testable import TelenoridCore

private let now: Int64 = 1_700_000_000
private let url = "https://rs.example.com/items"
private let token = SecretBytes(Array("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU".utf8))

private let key: DPoPKey = {
    guard let key = try? DPoPKey.generate(algorithm: "ES256") else { fatalError("fuzz_dpop_proof: no key") }
    return key
}()

/// No request is ever sent: the checks of a DPoP proof need neither metadata nor keys from the provider.
private final class NoNetwork: HTTPTransport, Sendable {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        fatalError("fuzz_dpop_proof: a DPoP check sent a request to \(request.url)")
    }
}

private let server: ResourceServer = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "rs"
    guard let configuration = try? ClientConfiguration(settings),
        let client = try? OIDCClient(configuration: configuration, transport: NoNetwork(), clock: { now }),
        let server = try? ResourceServer(client: client, audience: "https://rs.example.com/")
    else { fatalError("fuzz_dpop_proof: no resource server") }
    return server
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_dpop_proof: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

private func signed(header: [UInt8], payload: [UInt8]) -> String? {
    let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    guard let signature = try? JWS.signature(over: input, key: key.privateKey) else { return nil }
    return input + "." + Base64URL.encode(signature)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDPoPProof(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0] % 3
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let proof: String
    switch mode {
    case 0:
        proof = String(decoding: rest, as: UTF8.self)
    case 1:
        guard let nul = rest.firstIndex(of: 0),
            let made = signed(header: Array(rest[..<nul]), payload: Array(rest[(nul + 1)...]))
        else { return 0 }
        proof = made
    default:
        var header = JSONObject()
        header.set("typ", .string("dpop+jwt"))
        header.set("alg", .string("ES256"))
        header.set("jwk", .object(key.publicJWK))
        guard let made = signed(header: Array(JSON.serialize(.object(header)).utf8), payload: rest) else { return 0 }
        proof = made
    }
    // A cache of its own per input, so that the proofs of earlier inputs neither fill it nor count as seen.
    guard let cache = try? DPoPReplayCache() else { fail("no replay cache", rest) }
    server.useDPoPReplayCache(cache)
    do {
        try server.verifyDPoPProof(proof, method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
    } catch {
        guard error.kind == .tokenInvalid, error.oauthError == "invalid_dpop_proof",
            error.oauthErrorDescription?.isEmpty == false
        else { fail("refused as \(error.kind.name) \(error.oauthError ?? "without an OAuth error")", rest) }
        return 0
    }
    guard mode != 0 else { fail("a proof taken as it came was accepted", rest) }
    guard let jws = try? JWS(compact: proof), let claims = (try? JSON.parse(jws.payload))?.objectValue else {
        fail("an accepted proof does not parse", rest)
    }
    let typ = jws.header["typ"]?.stringValue.map { ASCII.lowercased($0.utf8) }
    guard typ == "dpop+jwt" || typ == "application/dpop+jwt", jws.algorithm == "ES256" else {
        fail("an accepted proof's typ or alg is wrong", rest)
    }
    guard let jwk = jws.header["jwk"]?.objectValue, (try? JWKThumbprint.sha256(of: jwk)) == key.thumbprint else {
        fail("an accepted proof's jwk is not the harness's key", rest)
    }
    guard claims["jti"]?.stringValue?.isEmpty == false, claims["htm"]?.stringValue == "GET",
        let htu = claims["htu"]?.stringValue, (try? DPoPProof.targetURI(htu)) == url,
        let iat = OIDCClient.seconds(claims["iat"]), iat >= now - cache.window, iat <= now + 120,
        claims["ath"]?.stringValue == DPoPProof.accessTokenHash(token)
    else { fail("an accepted proof's claims break a rule", rest) }
    do {
        try server.verifyDPoPProof(proof, method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        fail("an accepted proof was accepted again", rest)
    } catch {
        guard error.oauthErrorDescription?.contains("replayed") == true else {
            fail("a replay refused as \(error.message)", rest)
        }
    }
    return 0
}
