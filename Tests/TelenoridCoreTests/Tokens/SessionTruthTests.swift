import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// The auth state's verdicts at the edges: which refusals sign out, which leave everything as it was,
/// sign-out racing a refresh, a host reporting a rejected token, and a state shared through a file.
final class SessionTruthTests: XCTestCase {
    let time = TestClock()

    func makeState(expiresIn: Int64 = 0) -> (AuthState, ScriptedRefresher) { time.signedInState(expiresIn: expiresIn) }

    private func response(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> HTTPResponse
    {
        HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    // Each answer of the token endpoint to a refresh, the kind it is reported as, and whether the state
    // is still signed in after it.
    func testEveryRefreshAnswerIsJudgedByStatusAndBodyTogether() {
        let cases: [(String, HTTPResponse, TelenoridError.Kind, Bool)] = [
            ("bodyless 400", response(400, ""), .authorizationLost, false),
            ("HTML 401", response(401, "<html><body>Unauthorized</body></html>"), .authorizationLost, false),
            ("JSON without error 400", response(400, #"{"message":"no"}"#), .authorizationLost, false),
            ("invalid_grant 400", response(400, #"{"error":"invalid_grant"}"#), .authorizationLost, false),
            ("invalid_grant 403", response(403, #"{"error":"invalid_grant"}"#), .authorizationLost, false),
            ("invalid_client 401", response(401, #"{"error":"invalid_client"}"#), .clientRejected, true),
            ("unauthorized_client 400", response(400, #"{"error":"unauthorized_client"}"#), .clientRejected, true),
            ("access_denied 400", response(400, #"{"error":"access_denied"}"#), .authorizationError, true),
            ("invalid_grant 503", response(503, #"{"error":"invalid_grant"}"#), .temporarilyUnavailable, true),
            ("invalid_grant 500", response(500, #"{"error":"invalid_grant"}"#), .temporarilyUnavailable, true),
            ("invalid_client 502", response(502, #"{"error":"invalid_client"}"#), .temporarilyUnavailable, true),
            ("bodyless 429", response(429, ""), .temporarilyUnavailable, true),
            (
                "invalid_grant 302",
                response(302, #"{"error":"invalid_grant"}"#, headers: [("location", "https://portal.example/")]),
                .temporarilyUnavailable, true
            ),
            ("bodyless 404", response(404, ""), .httpStatus, true),
            ("bodyless 403", response(403, ""), .httpStatus, true)
        ]
        for (name, answer, kind, signedIn) in cases {
            let (state, refresher) = makeState()
            refresher.behaviour.withLock { $0 = .answer(answer) }
            let changes = Atomic<Int>(0)
            state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
            XCTAssertThrowsError(try state.freshTokens(), name) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, name)
            }
            XCTAssertEqual(state.isSignedIn, signedIn, name)
            XCTAssertEqual(changes.load(ordering: .relaxed), signedIn ? 0 : 1, name)
            if signedIn { XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-0", name) }
        }
    }

    func testTheTransientRuleIsOnePerKind() {
        let transient = TelenoridError.Kind.allCases.filter(\.isTransient)
        XCTAssertEqual(transient, [.timeout, .network, .tls, .temporarilyUnavailable])
    }

    func testAClientFixedAfterARejectionCarriesOn() throws {
        let (state, refresher) = makeState()
        refresher.behaviour.withLock { $0 = .answer(self.response(401, #"{"error":"invalid_client"}"#)) }
        XCTAssertThrowsError(try state.freshTokens())
        refresher.behaviour.withLock { $0 = .rotate }  // the secret was corrected
        XCTAssertEqual(try state.freshTokens().refreshToken?.string, "refresh-2")
    }

    func testRetryAfterComesWithA429OrA503() {
        let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
        func judged(_ status: Int, _ value: String) -> Int64? {
            OAuthErrorResponse.error(
                from: response(status, "", headers: [("retry-after", value)]), during: "refresh", now: now
            )
            .retryAfterSeconds
        }
        XCTAssertEqual(judged(429, "120"), 120)
        XCTAssertEqual(judged(503, " 7 "), 7)
        XCTAssertEqual(judged(503, "Sun, 06 Nov 1994 08:50:37 GMT"), 60)
        XCTAssertEqual(judged(503, "Sun, 06 Nov 1994 08:48:37 GMT"), 0)  // already past
        XCTAssertNil(judged(500, "120"))  // only 429 and 503 carry it (RFC 9110 §10.2.3, RFC 6585 §4)
        XCTAssertNil(judged(429, "soon"))
        XCTAssertNil(judged(429, "-5"))
        XCTAssertNil(judged(429, "999999999"))  // over a day
        XCTAssertNil(judged(429, "Sunday, 06-Nov-94 08:49:37 GMT"))  // obsolete RFC 850 form
        XCTAssertEqual(RetryAfter.imfFixdate(Array("Thu, 01 Jan 1970 00:00:00 GMT".utf8)), 0)
        XCTAssertEqual(RetryAfter.imfFixdate(Array("Tue, 29 Feb 2000 12:00:00 GMT".utf8)), 951_825_600)
    }

    func testBearerChallengesAreRead() {
        let parsed = AuthenticationChallenge.parse(
            #"Basic realm="api", Bearer realm="example", error="invalid_token", error_description="The access token expired\", really""#
        )
        XCTAssertEqual(parsed.map(\.scheme), ["basic", "bearer"])
        XCTAssertEqual(parsed[1].parameter("error"), "invalid_token")
        XCTAssertEqual(parsed[1].parameter("error_description"), #"The access token expired", really"#)
        XCTAssertEqual(
            AuthenticationChallenge.parse("DPoP error=use_dpop_nonce, algs=ES256").first?.parameter("algs"), "ES256")
        XCTAssertEqual(AuthenticationChallenge.parse("Bearer").map(\.scheme), ["bearer"])
        XCTAssertEqual(AuthenticationChallenge.parse(#"Bearer error="unterminated"#).first?.parameters.count, 0)
        XCTAssertTrue(AuthenticationChallenge.parse("").isEmpty)
        XCTAssertTrue(AuthenticationChallenge.parse("=broken").isEmpty)
    }

    func testTokenResponsesWithOtherTypesOrNULsAreRefused() throws {
        func parse(_ json: String) throws -> TokenResponse {
            try TokenResponse(try JSON.parse(Array(json.utf8)).objectValue!)
        }
        XCTAssertEqual(try parse(#"{"access_token":"a","token_type":"bEaReR"}"#).tokenType, "bEaReR")
        // DPoP is a type the client understands; whether a request may get one is DPoPFlowTests' matter.
        XCTAssertEqual(try parse(#"{"access_token":"a","token_type":"dpop"}"#).tokenType, "dpop")
        for refused in [
            #"{"access_token":"a","token_type":"mac"}"#, #"{"access_token":"a","token_type":"DPoPx"}"#,
            #"{"access_token":"a\u0000b","token_type":"Bearer"}"#,
            #"{"access_token":"a","token_type":"Bearer","refresh_token":"r\u0000"}"#
        ] {
            XCTAssertThrowsError(try parse(refused), refused) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidResponse)
            }
        }
    }

    // A sign-out while the refresh is out wins: the refresh's tokens are not kept, not announced, and
    // revoked; the thread that waited for the refresh is told it is not signed in.
    func testSignOutDuringARefreshWins() throws {
        let (state, refresher) = makeState()
        refresher.delayMicroseconds.store(300_000, ordering: .relaxed)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let outcome = Locked<Result<TokenSet, TelenoridError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result: Result<TokenSet, TelenoridError>
            do throws(TelenoridError) { result = .success(try state.forceRefresh()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        usleep(100_000)
        XCTAssertEqual(state.signOut()?.refreshToken?.string, "refresh-0")
        done.wait()
        XCTAssertThrowsError(try outcome.withLock { $0 }!.get()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .notSignedIn)
        }
        XCTAssertFalse(state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)  // the sign-out's, not the refresh's
        XCTAssertEqual(refresher.revoked.withLock { $0 }, ["refresh-1"])
    }

    func testRevokeSignsOutFirstAndRevokesTheRefreshToken() throws {
        let (state, refresher) = makeState(expiresIn: 300)
        try state.revoke()
        XCTAssertFalse(state.isSignedIn)
        XCTAssertEqual(refresher.revoked.withLock { $0 }, ["refresh-0"])
        XCTAssertThrowsError(try state.revoke()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .notSignedIn) }
    }

    func testARejectedAccessTokenIsRefreshedOnceAndLateReportsChangeNothing() throws {
        let (state, refresher) = makeState(expiresIn: 3600)
        let old = try state.freshTokens()
        state.accessTokenRejected(nil)
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        state.accessTokenRejected(old.accessToken)  // a late report about the token already replaced
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 1)
        // Replacing a refused token another thread already replaced sends nothing either.
        XCTAssertEqual(try state.replacing(rejected: old).accessToken.string, "access-1")
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 1)
    }

    // Two states bound to one file stand for two processes: the second uses the first one's refresh
    // instead of redeeming the same refresh token again.
    func testStatesSharingAFileNeverRedeemOneRefreshTokenTwice() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("telenorid-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let (first, firstRefresher) = makeState()
        try first.bind(to: try AuthStateFile(path: path))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let clock: Clock = { [time] in time.now.load(ordering: .relaxed) }
        let secondRefresher = ScriptedRefresher(clock: clock)
        let text = try AuthStateFile(path: path).load()!
        let second = AuthState(
            tokens: try AuthState.tokens(fromSerialized: text).tokens, refresher: secondRefresher,
            clock: clock, refreshMarginSeconds: 60)
        try second.bind(to: try AuthStateFile(path: path))

        XCTAssertEqual(try first.freshTokens().refreshToken?.string, "refresh-1")
        // The second holds refresh-0, which the provider has just rotated away: it must take refresh-1.
        XCTAssertEqual(try second.freshTokens().accessToken.string, "access-1")
        XCTAssertEqual(secondRefresher.calls.load(ordering: .relaxed), 0)
        XCTAssertEqual(firstRefresher.calls.load(ordering: .relaxed), 1)

        // A sign-out in one is seen by the other at its next refresh.
        first.signOut()
        time.now.wrappingAdd(3600, ordering: .relaxed)
        XCTAssertThrowsError(try second.freshTokens()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .notSignedIn) }
        XCTAssertEqual(secondRefresher.calls.load(ordering: .relaxed), 0)
        XCTAssertFalse(second.isSignedIn)
    }
}
