import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

final class AuthStateTests: XCTestCase {
    let time = TestClock()

    func makeState(expiresIn: Int64 = 300) -> (AuthState, ScriptedRefresher) {
        time.signedInState(expiresIn: expiresIn)
    }

    func testValidTokenIsHandedOutWithoutRefresh() throws {
        let (state, refresher) = makeState()
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-0")
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 0)
    }

    func testTokenWithinTheMarginIsRefreshedAndRotated() throws {
        let (state, refresher) = makeState(expiresIn: 30)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let tokens = try state.freshTokens()
        XCTAssertEqual(tokens.accessToken.string, "access-1")
        XCTAssertEqual(tokens.refreshToken?.string, "refresh-1")
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
    }

    func testResponseWithoutRefreshTokenKeepsTheOldOne() throws {
        let (state, refresher) = makeState()
        refresher.behaviour.withLock { $0 = .keepRefreshToken }
        XCTAssertEqual(try state.forceRefresh().refreshToken?.string, "refresh-0")
    }

    // 8 threads × many calls across several expiries: exactly one refresh per expiry, every thread sees
    // a valid token, and no rotation is lost.
    func testConcurrentCallersShareOneRefreshPerExpiry() throws {
        let (state, refresher) = makeState(expiresIn: 30)
        let expiries = 5
        let failures = Atomic<Int>(0)
        for round in 1...expiries {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<200 {
                    do {
                        let tokens = try state.freshTokens()
                        if tokens.accessToken.string != "access-\(round)" {
                            failures.wrappingAdd(1, ordering: .relaxed)
                        }
                    } catch { failures.wrappingAdd(1, ordering: .relaxed) }
                }
            }
            XCTAssertEqual(refresher.calls.load(ordering: .relaxed), round)
            XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-\(round)")
            time.now.wrappingAdd(300, ordering: .relaxed)  // past this round's expiry
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }

    func testConcurrentForcedRefreshesCoalesce() throws {
        let (state, refresher) = makeState()
        // Threads that queued behind a refresh take its outcome: with all eight waiting on the first, one
        // request goes out. A slow provider makes them queue for sure.
        refresher.delayMicroseconds.store(200_000, ordering: .relaxed)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                _ = try? state.forceRefresh()
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 1)
        // The observer hears of the one change once, from the thread that made it.
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        XCTAssertGreaterThanOrEqual(refresher.calls.load(ordering: .relaxed), 1)
    }

    func testInvalidGrantSignsOut() throws {
        let (state, refresher) = makeState(expiresIn: 0)
        refresher.behaviour.withLock { $0 = .lose("invalid_grant") }
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        XCTAssertThrowsError(try state.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationLost)
            XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "invalid_grant")
        }
        XCTAssertFalse(state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        XCTAssertThrowsError(try state.freshTokens()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .notSignedIn) }
    }

    func testTransientFailureLeavesTheStateAsItWas() throws {
        let (state, refresher) = makeState(expiresIn: 0)
        refresher.behaviour.withLock { $0 = .transient }
        XCTAssertThrowsError(try state.freshTokens()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .network) }
        XCTAssertTrue(state.isSignedIn)
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-0")
        refresher.behaviour.withLock { $0 = .lose("server_error") }
        XCTAssertThrowsError(try state.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationError)
        }
        XCTAssertTrue(state.isSignedIn)
    }

    func testSerializationRoundTrip() throws {
        let (state, _) = makeState()
        let text = state.serialized()
        let tokens = try AuthState.tokens(fromSerialized: text).tokens
        XCTAssertEqual(tokens?.accessToken.string, "access-0")
        XCTAssertEqual(tokens?.refreshToken?.string, "refresh-0")
        XCTAssertEqual(tokens?.accessTokenExpiresAt, state.tokens?.accessTokenExpiresAt)
        XCTAssertThrowsError(try AuthState.tokens(fromSerialized: secret("{\"version\":9}"))) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .version)
        }
        XCTAssertThrowsError(try AuthState.tokens(fromSerialized: secret("{\"version\":1,\"access_token\":5}"))) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .malformed)
        }
        XCTAssertThrowsError(
            try AuthState.tokens(
                fromSerialized: secret(
                    "{\"version\":1,\"access_token\":\"a\",\"token_type\":\"Bearer\",\"refresh_token\":[]}"))
        ) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .malformed)
        }
        state.signOut()
        XCTAssertNil(try AuthState.tokens(fromSerialized: state.serialized()).tokens)
    }

    /// The tokens are spliced into the document as bytes: escaped exactly as the JSON serializer escapes
    /// a String, so the document is the one it always was, and read back unchanged.
    func testSerializationEscapesTokensAsTheSerializerDoes() throws {
        let access = "a\"b\\c\u{01}\n\u{1F}é", refresh = "r\"\\/\t"
        let clock: Clock = { 1_000 }
        // The ID token's payload is {"sub":"alice"}: its claims are read from it, not saved beside it.
        let idToken = "aGRy.eyJzdWIiOiJhbGljZSJ9.c2ln"
        let tokens = TokenSet(
            accessToken: secret(access), tokenType: "Bearer", accessTokenExpiresAt: 1_300,
            refreshToken: secret(refresh), idToken: idToken, scope: "openid")
        let state = AuthState(
            tokens: tokens, refresher: ScriptedRefresher(clock: clock), clock: clock, refreshMarginSeconds: 60,
            issuer: "https://issuer.example", clientID: "client")
        var expected = JSONObject()
        expected.set("version", .number(JSONNumber(AuthState.formatVersion)))
        expected.set("issuer", .string("https://issuer.example"))
        expected.set("client_id", .string("client"))
        expected.set("access_token", .string(access))
        expected.set("token_type", .string("Bearer"))
        expected.set("expires_at", .number(JSONNumber(Int64(1_300))))
        expected.set("refresh_token", .string(refresh))
        expected.set("id_token", .string(idToken))
        expected.set("scope", .string("openid"))
        let serialized = state.serialized()
        XCTAssertEqual(serialized.string, JSON.serialize(.object(expected)))
        let restored = try AuthState.tokens(fromSerialized: serialized)
        XCTAssertEqual(restored.tokens?.accessToken.string, access)
        XCTAssertEqual(restored.tokens?.refreshToken?.string, refresh)
        XCTAssertEqual(restored.tokens?.idTokenClaims?["sub"]?.stringValue, "alice")
        XCTAssertEqual(restored.issuer, "https://issuer.example")
        XCTAssertEqual(restored.clientID, "client")
    }
}
