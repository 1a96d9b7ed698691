// libFuzzer target: a resource server's 401 headers, the whole input as one header value, through
// AuthenticationChallenge.parse (WWW-Authenticate), StepUpChallenge.parse and AuthorizationRequest.applyStepUp
// (RFC 9470), DPoPNonces.parseHeader (DPoP-Nonce) and DPoPNonces.asksForNonce (RFC 9449 §8, §9).
//
// Properties besides not crashing (a violation traps, which libFuzzer reports with the input saved):
//  - schemes and parameter names are non-empty lower-case tokens; a token68 is RFC 9110 §11.2's token68
//    and comes without parameters;
//  - the challenges written back out (every value quoted) parse to the same challenges, and the step-up
//    and nonce verdicts on that text are the same: they depend on the challenges, not their spelling;
//  - a token68 challenge with `=` padding in front of them (`Negotiate YII...==, `) changes neither the
//    challenges after it nor the step-up and nonce verdicts: a Bearer or DPoP challenge after it is found;
//  - a step-up is found (or refused as .invalidResponse, nothing else) exactly when a bearer or dpop
//    challenge has error=insufficient_user_authentication; a found one has 0 <= max_age <= 10 digits and
//    non-empty acr values without spaces, and applying it to a request never fails and sets acr_values,
//    max_age and an essential acr claim with exactly those values;
//  - a parsed nonce is a valid nonce that re-parses to itself and is remembered for its origin only;
//    what does not parse is never remembered;
//  - only a 401 asks for a nonce through WWW-Authenticate, and the body's error does not change that.
@testable import TelenoridCore

private let configuration: ClientConfiguration = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "client"
    settings[.redirectURI] = "com.example.app:/callback"
    settings[.authorizationEndpoint] = "https://id.example.com/authorize"
    do throws(TelenoridError) { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_www_authenticate: the fixed configuration was refused: \(error.message)")
    }
}()

private func fail(_ what: String, _ input: String) -> Never {
    fatalError(
        "fuzz_www_authenticate: \(what); input (\(input.utf8.count) bytes, first 512 shown): \(input.prefix(512))")
}

/// The challenges as a header value again, every parameter value as a quoted-string (RFC 9110 §5.6.4).
private func written(_ challenges: [AuthenticationChallenge]) -> String {
    func quoted(_ value: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
    return challenges.map { challenge in
        if let token68 = challenge.token68 { return challenge.scheme + " " + token68 }
        return challenge.parameters.isEmpty
            ? challenge.scheme
            : challenge.scheme + " "
                + challenge.parameters.map { "\($0.name)=\(quoted($0.value))" }.joined(separator: ", ")
    }.joined(separator: ", ")
}

/// A SPNEGO-like challenge (RFC 4559 §4) whose token68 ends in padding, put in front of other challenges.
private let negotiate = AuthenticationChallenge(scheme: "negotiate", token68: "YIIBhwYJKoZIhvcSAQICAQBu+/gF2MIIBcqA==")

private func behindToken68(_ challenges: [AuthenticationChallenge]) -> String {
    written([negotiate] + challenges)
}

private func isToken68(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let body = bytes.prefix { ASCII.isAlpha($0) || ASCII.isDigit($0) || "-._~+/".utf8.contains($0) }
    return !body.isEmpty && bytes.dropFirst(body.count).allSatisfy { $0 == UInt8(ascii: "=") }
}

private enum StepUpOutcome: Equatable {
    case absent, refused, found(StepUpChallenge)
}

private func stepUp(_ text: String) -> StepUpOutcome {
    do throws(TelenoridError) {
        return try StepUpChallenge.parse(wwwAuthenticate: text).map(StepUpOutcome.found) ?? .absent
    } catch {
        guard error.kind == .invalidResponse else { fail("step-up parse threw \(error.kind): \(error.message)", text) }
        return .refused
    }
}

private func checkChallenges(_ text: String) -> [AuthenticationChallenge] {
    let challenges = AuthenticationChallenge.parse(text)
    for name in challenges.flatMap({ [$0.scheme] + $0.parameters.map(\.name) }) {
        guard !name.isEmpty, name.utf8.allSatisfy(ASCII.isTokenByte), ASCII.lowercased(name) == name else {
            fail("challenge name \(name) is not a lower-case token", text)
        }
    }
    for challenge in challenges {
        if let token68 = challenge.token68, !isToken68(token68) || !challenge.parameters.isEmpty {
            fail(
                "challenge \(challenge.scheme) has token68 \(token68) and \(challenge.parameters.count) parameters",
                text)
        }
    }
    guard AuthenticationChallenge.parse(written(challenges)) == challenges else {
        fail("the challenges written out parse differently: \(written(challenges).prefix(512))", text)
    }
    guard AuthenticationChallenge.parse(behindToken68(challenges)) == [negotiate] + challenges else {
        fail(
            "the challenges behind a token68 challenge parse differently: \(behindToken68(challenges).prefix(512))",
            text)
    }
    return challenges
}

private func checkStepUp(_ text: String, _ challenges: [AuthenticationChallenge]) {
    let outcome = stepUp(text)
    guard stepUp(written(challenges)) == outcome else {
        fail("the challenges written out give another step-up verdict", text)
    }
    guard stepUp(behindToken68(challenges)) == outcome else {
        fail("a token68 challenge in front changes the step-up verdict", text)
    }
    let isStepUp = challenges.contains {
        ($0.scheme == "bearer" || $0.scheme == "dpop") && $0.parameter("error") == "insufficient_user_authentication"
    }
    guard isStepUp == (outcome != .absent) else {
        fail("step-up verdict \(outcome) disagrees with the challenges", text)
    }
    guard case .found(let challenge) = outcome else { return }
    if let maxAge = challenge.maxAge, maxAge < 0 || maxAge > 9_999_999_999 { fail("max_age \(maxAge) accepted", text) }
    if let values = challenge.acrValues {
        guard !values.isEmpty, values.allSatisfy({ !$0.isEmpty && !$0.utf8.contains(0x20) }) else {
            fail("acr values \(values) are not a list of non-empty space-free values", text)
        }
    }
    var request = AuthorizationRequest(configuration: configuration)
    do throws(TelenoridError) { try request.applyStepUp(challenge) } catch {
        fail("applying a parsed step-up threw \(error.kind): \(error.message)", text)
    }
    guard request.values[.acrValues] == challenge.acrValues?.joined(separator: " "),
        request.values[.maxAge] == challenge.maxAge.map({ String($0) })
    else {
        fail(
            "applyStepUp set acr_values \(request.values[.acrValues] ?? "-"), max_age \(request.values[.maxAge] ?? "-")",
            text)
    }
    let expectedClaims =
        challenge.acrValues.map {
            [ClaimsRequest.Claim(name: "acr", essential: true, values: $0.map { .string($0) })]
        } ?? []
    guard request.claims.idToken == expectedClaims, request.claims.userinfo.isEmpty else {
        fail("applyStepUp asked for other claims than the essential acr", text)
    }
}

private func checkNonce(_ text: String) {
    let nonces = DPoPNonces()
    guard let nonce = DPoPNonces.parseHeader(text) else {
        nonces.remember(text, for: "https://rs.example/resource")
        if let kept = nonces.nonce(for: "https://rs.example/resource") {
            fail("an unparsable nonce was remembered as \(kept)", text)
        }
        return
    }
    guard DPoPNonces.isNonce(nonce), DPoPNonces.parseHeader(nonce) == nonce else {
        fail("nonce \(nonce) does not re-parse", text)
    }
    nonces.remember(nonce, for: "https://rs.example/resource")
    guard nonces.nonce(for: "https://rs.example:443/other") == nonce,
        nonces.nonce(for: "https://as.example/token") == nil,
        nonces.nonce(for: "http://rs.example/resource") == nil
    else {
        fail("nonce \(nonce) is not kept for exactly its origin", text)
    }
}

private func checkAsksForNonce(_ text: String, _ challenges: [AuthenticationChallenge]) {
    let asks = DPoPNonces.asksForNonce(status: 401, oauthError: nil, wwwAuthenticate: text)
    guard DPoPNonces.asksForNonce(status: 401, oauthError: nil, wwwAuthenticate: written(challenges)) == asks else {
        fail("the challenges written out give another nonce verdict", text)
    }
    guard DPoPNonces.asksForNonce(status: 401, oauthError: nil, wwwAuthenticate: behindToken68(challenges)) == asks
    else {
        fail("a token68 challenge in front changes the nonce verdict", text)
    }
    guard DPoPNonces.asksForNonce(status: 401, oauthError: "use_dpop_nonce", wwwAuthenticate: text) == asks else {
        fail("a 401's body error changed the nonce verdict", text)
    }
    if asks, !challenges.contains(where: { $0.scheme == "dpop" }) {
        fail("a nonce asked for without a DPoP challenge", text)
    }
    for status in [200, 400, 403, 500]
    where DPoPNonces.asksForNonce(status: status, oauthError: nil, wwwAuthenticate: text) {
        fail("HTTP \(status) asks for a nonce through WWW-Authenticate", text)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWWWAuthenticate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let challenges = checkChallenges(text)
    checkStepUp(text, challenges)
    checkNonce(text)
    checkAsksForNonce(text, challenges)
    return 0
}
