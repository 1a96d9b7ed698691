import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

private let pending = (status: 400, body: #"{"error":"authorization_pending"}"#)
private let slowDown = (status: 400, body: #"{"error":"slow_down"}"#)

final class BackchannelWaitTests: XCTestCase {
    private func provider(_ acknowledgement: String = #"{"auth_req_id":"req-1","expires_in":120}"#) -> MemoryProvider {
        let provider = MemoryProvider()
        provider.advertise("backchannel_authentication_endpoint", endpoint: .backchannel)
        provider.advertise("jwks_uri", endpoint: .jwks)
        provider.answer(.backchannel, status: 200, body: acknowledgement)
        provider.answer(.jwks, status: 200, body: #"{"keys":[\#(JOSEFixtures.rsaJwk)]}"#)
        return provider
    }

    /// A client whose waits pass no real time unless `realSleeps`: each sleep moves `time` and is recorded.
    private func client(
        _ provider: MemoryProvider, _ time: TestClock, slept: Locked<[Int64]>? = nil, realSleeps: Bool = false,
        _ extra: [ClientConfiguration.Setting: String] = [:]
    ) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "call-centre"
        settings[.redirectURI] = "https://client.example.org/cb"
        settings[.clientSecret] = "s3cret"
        for (setting, value) in extra { settings[setting] = value }
        let sleeps =
            realSleeps
            ? CancellableSleeps()
            : CancellableSleeps { seconds in
                time.now.add(seconds, ordering: .relaxed)
                slept?.withLock { $0.append(seconds) }
            }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { time.now.load(ordering: .relaxed) }, sleeps: sleeps)
    }

    private func tokens(_ time: TestClock, idToken: Bool = true) throws -> String {
        let now = time.now.load(ordering: .relaxed)
        let payload = Array(
            #"{"iss":"https://id.example.com","sub":"alice","aud":"call-centre","iat":\#(now),"exp":\#(now + 600)}"#
                .utf8)
        let token = try JWS.sign(payload: payload, key: try PrivateKey(pem: JOSEFixtures.rsaPrivatePem), keyID: "rsa-1")
        return #"{"access_token":"ciba-access","token_type":"Bearer","expires_in":3600"#
            + (idToken ? #","id_token":"\#(token)"}"# : "}")
    }

    private func start(_ client: OIDCClient) throws -> BackchannelAuthentication {
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.set(.loginHint, "tel:+4790000000")
        return try client.startBackchannelAuthentication(request)
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\($0)", line: line)
        }
    }

    func testThePollWaitEndsInAnAuthStateWithItsIDTokenValidated() throws {
        let provider = provider()
        let time = TestClock()
        let slept = Locked<[Int64]>([])
        let client = try client(provider, time, slept: slept)
        let auth = try start(client)
        provider.queue(.token, [pending, slowDown, pending, (200, try tokens(time))])
        let state = try auth.wait()
        XCTAssertTrue(state.isSignedIn)
        XCTAssertEqual(state.tokens?.idTokenClaims?["sub"]?.stringValue, "alice")
        XCTAssertEqual(slept.withLock { $0 }, [5, 5, 10, 10])
        XCTAssertEqual(auth.interval, 10)
        let form = try provider.lastForm(to: .token)
        XCTAssertEqual(form["grant_type"], "urn:openid:params:grant-type:ciba")
        XCTAssertEqual(form["auth_req_id"], "req-1")
        assertKind(.consumed, try auth.wait())
    }

    func testATokenResponseWithoutAnIDTokenIsRefused() throws {
        let provider = provider()
        let time = TestClock()
        let client = try client(provider, time)
        let auth = try start(client)
        provider.queue(.token, [(200, try tokens(time, idToken: false))])
        assertKind(.invalidResponse, try auth.wait())
    }

    func testDenialIsAnAuthorizationErrorAndExpiryEndsTheWait() throws {
        let provider = provider(#"{"auth_req_id":"req-1","expires_in":12,"interval":4}"#)
        let time = TestClock()
        let client = try client(provider, time)
        let denied = try start(client)
        provider.queue(.token, [pending, (403, #"{"error":"access_denied","error_description":"the user said no"}"#)])
        XCTAssertThrowsError(try denied.wait()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationError)
            XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "access_denied")
        }
        let expiring = try start(client)
        provider.answer(.token, status: 400, body: pending.body)
        assertKind(.expired, try expiring.wait())
        XCTAssertGreaterThanOrEqual(time.now.load(ordering: .relaxed), expiring.expiresAt)
    }

    func testAValidPingWakesTheWaitAndAnInvalidOneDoesNot() throws {
        let provider = provider(#"{"auth_req_id":"req-1","expires_in":120,"interval":30}"#)
        let time = TestClock()
        let client = try client(provider, time, realSleeps: true, [.backchannelTokenDeliveryMode: "ping"])
        let auth = try start(client)
        let token = try XCTUnwrap(try provider.lastForm(to: .backchannel)["client_notification_token"])
        provider.queue(.token, [(200, try tokens(time))])
        let result = Locked<Result<AuthState, TelenoridError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome: Result<AuthState, TelenoridError>
            do throws(TelenoridError) { outcome = .success(try auth.wait()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        let body = Array(#"{"auth_req_id":"req-1"}"#.utf8)
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertThrowsError(try auth.handlePing(authorization: "Bearer not-it", body: body))
        XCTAssertEqual(done.wait(timeout: .now() + 0.5), .timedOut, "a refused ping woke the wait")
        XCTAssertTrue(provider.requests(to: .token).isEmpty)
        try auth.handlePing(authorization: "Bearer " + token, body: body)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "the ping did not wake the wait")
        XCTAssertEqual(try XCTUnwrap(result.withLock { $0 }).get().isSignedIn, true)
    }

    func testCancelEndsAPingWaitWithinAMoment() throws {
        let provider = provider(#"{"auth_req_id":"req-1","expires_in":120,"interval":30}"#)
        let client = try client(provider, TestClock(), realSleeps: true, [.backchannelTokenDeliveryMode: "ping"])
        let auth = try start(client)
        let done = DispatchSemaphore(value: 0)
        let kind = Locked<TelenoridError.Kind?>(nil)
        Thread.detachNewThread {
            do throws(TelenoridError) { _ = try auth.wait() } catch { kind.withLock { $0 = error.kind } }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        client.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 1), .success)
        XCTAssertEqual(kind.withLock { $0 }, .cancelled)
        XCTAssertTrue(provider.requests(to: .token).isEmpty)
    }

    /// Starts `auth.wait()` on a thread; the semaphore is signalled when it ends.
    private func waitInBackground(_ auth: BackchannelAuthentication) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? auth.wait()
            done.signal()
        }
        return done
    }

    /// Pings `count` times, `gap` seconds apart, each a valid one (a replay is as valid as the first).
    private func ping(_ auth: BackchannelAuthentication, _ provider: MemoryProvider, count: Int, gap: Double) throws {
        let token = try XCTUnwrap(try provider.lastForm(to: .backchannel)["client_notification_token"])
        for _ in 0..<count {
            try auth.handlePing(authorization: "Bearer " + token, body: Array(#"{"auth_req_id":"req-1"}"#.utf8))
            Thread.sleep(forTimeInterval: gap)
        }
    }

    func testAReplayedPingWakesTheWaitOncePerIntervalAtMost() throws {
        let provider = provider(#"{"auth_req_id":"req-1","expires_in":120,"interval":30}"#)
        let client = try client(provider, TestClock(), realSleeps: true, [.backchannelTokenDeliveryMode: "ping"])
        let auth = try start(client)
        provider.answer(.token, status: 400, body: pending.body)
        let done = waitInBackground(auth)
        Thread.sleep(forTimeInterval: 0.1)
        try ping(auth, provider, count: 40, gap: 0.05)
        XCTAssertEqual(provider.requests(to: .token).count, 1, "40 pings in 2 s within one 30 s interval")
        client.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 2), .success)
    }

    func testAPingDoesNotCutTheIntervalASlowDownAskedFor() throws {
        let provider = provider(#"{"auth_req_id":"req-1","expires_in":120,"interval":1}"#)
        let client = try client(provider, TestClock(), realSleeps: true, [.backchannelTokenDeliveryMode: "ping"])
        let auth = try start(client)
        provider.queue(.token, [slowDown])
        provider.answer(.token, status: 400, body: pending.body)
        let done = waitInBackground(auth)
        // The first poll comes after the 1 s interval, unpinged, and is answered slow_down: 6 s from now on.
        let deadline = Date().addingTimeInterval(5)
        while provider.requests(to: .token).isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(provider.requests(to: .token).count, 1)
        try ping(auth, provider, count: 20, gap: 0.05)
        XCTAssertEqual(provider.requests(to: .token).count, 1, "a ping cut the slowed-down interval short")
        client.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(auth.interval, 6, "the slowed-down interval holds for a wait started again")
    }
}
