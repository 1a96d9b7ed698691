// libFuzzer target: a token exchange response (RFC 8693 §2.2.1, §2.2.2) as the token endpoint sends it, read
// through `OIDCClient.exchangeToken` over an in-memory transport; the first byte picks the HTTP status, the
// rest is the body. Properties beyond not crashing:
//  - only a 200 answer is ever an issued token;
//  - an issued token has a non-empty token without NUL, an issued_token_type that parses as a URI and a
//    non-empty token_type, and an expiry no earlier than the answer;
//  - it becomes an auth state exactly when it is an access token (issued_token_type access_token, token_type
//    Bearer) with a refresh token, and only once; that state hands out the same access token.
@testable import TelenoridCore

private let issuer = "https://id.example.com"
private let statuses = [200, 200, 200, 400, 401, 500, 302]
private let now: Int64 = 1_700_000_000

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_token_exchange: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

/// The token endpoint answers the input.
private final class FakeTransport: HTTPTransport, @unchecked Sendable {
    let answer: HTTPResponse
    init(answer: HTTPResponse) { self.answer = answer }
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse { answer }
}

private let configuration: ClientConfiguration = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "client"
    settings[.clientSecret] = "secret"
    settings[.tokenEndpoint] = "\(issuer)/token"
    do throws(TelenoridError) { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_token_exchange: the fixed configuration was refused: \(error.message)")
    }
}()

private let request: TokenExchangeRequest = {
    do throws(TelenoridError) {
        return try TokenExchangeRequest(
            subjectToken: SecretBytes(Array("subject".utf8)), subjectTokenType: TokenTypeIdentifier.accessToken)
    } catch {
        fatalError("fuzz_token_exchange: the fixed request was refused: \(error.message)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenExchange(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let status = statuses[Int(input[0]) % statuses.count]
    let answer = HTTPResponse(
        status: status, headers: [("content-type", "application/json")], body: Array(input.dropFirst()))
    let client: OIDCClient
    do {
        client = try OIDCClient(configuration: configuration, transport: FakeTransport(answer: answer), clock: { now })
    } catch {
        fatalError("fuzz_token_exchange: the client was refused: \(error.message)")
    }
    guard let issued = try? client.exchangeToken(request) else { return 0 }
    guard status == 200 else { fail("an HTTP \(status) answer was taken as an issued token", input) }
    guard issued.token.count > 0, !issued.token.bytes.contains(0) else { fail("an empty or NUL token", input) }
    guard (try? URI(parsing: issued.issuedTokenType)) != nil else { fail("issued_token_type is no URI", input) }
    guard !issued.tokenType.isEmpty else { fail("an empty token_type", input) }
    if let expiresAt = issued.expiresAt, expiresAt < now { fail("an expiry before the answer", input) }
    let usable =
        issued.issuedTokenType == TokenTypeIdentifier.accessToken && issued.refreshToken != nil
        && ASCII.equalsIgnoringCase(issued.tokenType.utf8, "bearer".utf8)
    guard let state = try? issued.authState() else {
        if usable { fail("an access token with a refresh token did not become an auth state", input) }
        return 0
    }
    guard usable else { fail("an auth state of a token that is not an access token with a refresh token", input) }
    guard (try? issued.authState()) == nil else { fail("a second auth state of one issued token", input) }
    guard let tokens = state.tokens, tokens.accessToken.bytes == issued.token.bytes else {
        fail("the auth state holds another access token", input)
    }
    return 0
}
