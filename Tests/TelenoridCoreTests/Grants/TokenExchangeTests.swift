import XCTest
@testable import TelenoridCore

/// Token exchange (RFC 8693): the request's checks and form (§2.1), the response's reading (§2.2.1), and the
/// issued access token kept as an auth state, against the in-memory provider.
final class TokenExchangeTests: XCTestCase {
    private let time = TestClock()

    private func client(_ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [:]) throws
        -> OIDCClient
    {
        try provider.client(
            [.clientID: "exchanger", .clientSecret: "exchanger-secret"], extra,
            clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    private func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, _ message: String? = nil,
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, kind, error?.message ?? "\($0)", line: line)
            if let message { XCTAssertTrue(error?.message.contains(message) == true, error?.message ?? "", line: line) }
        }
    }

    private func answering(_ body: String, status: Int = 200) -> MemoryProvider {
        let provider = MemoryProvider()
        provider.answer(.token, status: status, body: body)
        return provider
    }

    func testTheRequestIsCheckedAsRFC8693Section2Point1Says() throws {
        assertKind(.invalidArgument, try TokenExchangeRequest(subjectToken: secret(""), subjectTokenType: "urn:x:y"))
        assertKind(.invalidArgument, try TokenExchangeRequest(subjectToken: secret("t"), subjectTokenType: "not a uri"))
        let request = try TokenExchangeRequest(
            subjectToken: secret("subject"), subjectTokenType: TokenTypeIdentifier.accessToken)
        assertKind(.invalidArgument, try request.setActor(token: secret("actor"), type: nil), "go together")
        assertKind(.invalidArgument, try request.setActor(token: nil, type: TokenTypeIdentifier.jwt), "go together")
        assertKind(.invalidArgument, try request.setActor(token: secret(""), type: TokenTypeIdentifier.jwt))
        assertKind(.invalidArgument, try request.setActor(token: secret("actor"), type: "jwt"))
        assertKind(.invalidArgument, try request.addResource("api"), "absolute URI")
        assertKind(.invalidArgument, try request.addResource("https://api.example.com/#top"), "fragment")
        try request.addResource("https://api.example.com/")
        assertKind(.invalidArgument, try request.addResource("https://api.example.com/"), "already")
        assertKind(.invalidArgument, try request.addAudience(""))
        try request.addAudience("backend")
        assertKind(.invalidArgument, try request.addAudience("backend"), "already")
        assertKind(.invalidArgument, try request.setScope(""))
        assertKind(.invalidArgument, try request.setRequestedTokenType("access token"))
        try request.setActor(token: secret("actor"), type: TokenTypeIdentifier.jwt)
        try request.setActor(token: nil, type: nil)
        XCTAssertNil(request.snapshot.actorToken)
        XCTAssertNil(request.snapshot.actorTokenType)
    }

    func testTheFormCarriesEveryParameterAndTheClientAuthenticates() throws {
        let provider = answering(
            #"{"access_token":"issued","issued_token_type":"urn:ietf:params:oauth:token-type:jwt","#
                + #""token_type":"N_A","expires_in":"120","scope":"read"}"#)
        let request = try TokenExchangeRequest(
            subjectToken: secret("subject-token"), subjectTokenType: TokenTypeIdentifier.accessToken)
        try request.setActor(token: secret("actor-token"), type: TokenTypeIdentifier.idToken)
        try request.addResource("https://a.example/")
        try request.addResource("https://b.example/")
        try request.addAudience("backend")
        try request.setScope("read write")
        try request.setRequestedTokenType(TokenTypeIdentifier.jwt)
        let issued = try client(provider).exchangeToken(request)

        // FormParameters(parsing:) refuses a repeated name, which `resource` is here (RFC 8707 §2): split by hand.
        let body = try XCTUnwrap(provider.requests(to: .token).last?.body).string
        let resources = body.split(separator: "&").filter { $0.hasPrefix("resource=") }
        XCTAssertEqual(resources, ["resource=https%3A%2F%2Fa.example%2F", "resource=https%3A%2F%2Fb.example%2F"])
        let form = try FormParameters(
            parsing: body.split(separator: "&").filter { !$0.hasPrefix("resource=") }
                .joined(separator: "&")[...])
        XCTAssertEqual(form["grant_type"], "urn:ietf:params:oauth:grant-type:token-exchange")
        XCTAssertEqual(form["audience"], "backend")
        XCTAssertEqual(form["scope"], "read write")
        XCTAssertEqual(form["requested_token_type"], TokenTypeIdentifier.jwt)
        XCTAssertEqual(form["subject_token"], "subject-token")
        XCTAssertEqual(form["subject_token_type"], TokenTypeIdentifier.accessToken)
        XCTAssertEqual(form["actor_token"], "actor-token")
        XCTAssertEqual(form["actor_token_type"], TokenTypeIdentifier.idToken)
        XCTAssertNotNil(provider.requests(to: .token).last?.authorization, "client_secret_basic")

        XCTAssertEqual(issued.token.string, "issued")
        XCTAssertEqual(issued.issuedTokenType, TokenTypeIdentifier.jwt)
        XCTAssertEqual(issued.tokenType, "N_A")
        XCTAssertEqual(issued.expiresIn, 120)
        XCTAssertEqual(issued.expiresAt, time.now.load(ordering: .relaxed) + 120)
        XCTAssertEqual(issued.scope, "read")
        XCTAssertNil(issued.refreshToken)
        // §2.2.1: a JWT with token_type N_A is no access token; it can't become an auth state.
        assertKind(.invalidArgument, try issued.authState(), "not an access token")
    }

    func testAResponseWithoutARequiredMemberIsRefused() throws {
        let request = try TokenExchangeRequest(
            subjectToken: secret("s"), subjectTokenType: TokenTypeIdentifier.accessToken)
        let complete: [String: String] = [
            "access_token": #""a""#, "issued_token_type": #""urn:ietf:params:oauth:token-type:access_token""#,
            "token_type": #""Bearer""#
        ]
        for missing in complete.keys.sorted() {
            let body =
                "{" + complete.filter { $0.key != missing }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
                + "}"
            assertKind(.invalidResponse, try client(answering(body)).exchangeToken(request), "lacks \(missing)")
        }
        for (member, value) in [
            ("issued_token_type", "7"), ("issued_token_type", #""not a uri""#), ("access_token", #""""#),
            ("token_type", "null"), ("expires_in", "-1"), ("scope", "[]"), ("refresh_token", "1")
        ] {
            var fields = complete
            fields[member] = value
            let body = "{" + fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            assertKind(.invalidResponse, try client(answering(body)).exchangeToken(request))
        }
        assertKind(.invalidResponse, try client(answering("[]")).exchangeToken(request))
    }

    func testTheProvidersRefusalComesWithItsError() throws {
        let request = try TokenExchangeRequest(
            subjectToken: secret("s"), subjectTokenType: TokenTypeIdentifier.accessToken)
        let provider = answering(
            #"{"error":"invalid_target","error_description":"Unknown audience"}"#, status: 400)
        XCTAssertThrowsError(try client(provider).exchangeToken(request)) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .authorizationError)
            XCTAssertEqual(error?.oauthError, "invalid_target")
            XCTAssertEqual(error?.oauthErrorDescription, "Unknown audience")
        }
    }

    func testAnAccessTokenWithARefreshTokenBecomesAnAuthStateOnce() throws {
        let provider = MemoryProvider()
        provider.queue(
            .token,
            [
                (
                    200,
                    #"{"access_token":"exchanged","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","#
                        + #""token_type":"Bearer","expires_in":600,"refresh_token":"exchanged-refresh","scope":"read"}"#
                )
            ])
        provider.answer(
            .token, status: 200, body: #"{"access_token":"refreshed","token_type":"Bearer","expires_in":600}"#)
        let client = try client(provider)
        let request = try TokenExchangeRequest(
            subjectToken: secret("s"), subjectTokenType: TokenTypeIdentifier.accessToken)
        try request.addResource("https://api.example.com/")
        let issued = try client.exchangeToken(request)
        let state = try issued.authState()
        assertKind(.consumed, try issued.authState())
        XCTAssertEqual(try state.freshTokens().accessToken.string, "exchanged")
        XCTAssertEqual(try state.forceRefresh().accessToken.string, "refreshed")
        let refresh = try provider.lastForm(to: .token)
        XCTAssertEqual(refresh["grant_type"], "refresh_token")
        XCTAssertEqual(refresh["refresh_token"], "exchanged-refresh")
        XCTAssertEqual(refresh["resource"], "https://api.example.com/", "RFC 8707 §2.2: the resource again")

        let withoutRefresh = try self.client(
            answering(
                #"{"access_token":"a","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","#
                    + #""token_type":"Bearer"}"#)
        ).exchangeToken(request)
        assertKind(.invalidArgument, try withoutRefresh.authState(), "without a refresh token")
    }

    func testABearerAnswerToADPoPProofIsRefusedUnlessTheHostAllowsIt() throws {
        let body =
            #"{"access_token":"a","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer"}"#
        let request = try TokenExchangeRequest(
            subjectToken: secret("s"), subjectTokenType: TokenTypeIdentifier.accessToken)
        let provider = answering(body)
        assertKind(
            .invalidResponse, try client(provider, [.dpopSigningAlgorithm: "ES256"]).exchangeToken(request), "RFC 9449")
        XCTAssertNotNil(
            provider.requests(to: .token).last?.headers.first(where: { $0.name == "DPoP" }), "a proof went with it")
        let allowed = try client(answering(body), [.dpopSigningAlgorithm: "ES256", .allowBearerDowngrade: "true"])
        XCTAssertEqual(try allowed.exchangeToken(request).tokenType, "Bearer")
        // A token that is not an access token binds nothing: N_A is fine with a proof.
        let notAccess =
            #"{"access_token":"r","issued_token_type":"urn:ietf:params:oauth:token-type:refresh_token","token_type":"N_A"}"#
        XCTAssertEqual(
            try client(answering(notAccess), [.dpopSigningAlgorithm: "ES256"]).exchangeToken(request).tokenType, "N_A")
    }
}
