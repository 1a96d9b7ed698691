import Synchronization
import XCTest
@testable import TelenoridCore

final class KeySetCacheTests: XCTestCase {
    let time = TestClock()
    let provider = KeyProvider()

    override func setUp() {
        time.now.store(1_800_000_000, ordering: .relaxed)
    }

    func advance(_ seconds: Int64) {
        time.now.wrappingAdd(seconds, ordering: .relaxed)
    }

    func verify(_ client: OIDCClient, keyID: String = "rsa-1") throws {
        _ = try client.verifyIDToken(try provider.idToken(time, keyID: keyID), nonce: nil)
    }

    func testAWithdrawnKeyStopsVerifyingOnceTheSetIsOlderThanMaxAge() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        XCTAssertEqual(client.configuration.jwksMaxAgeSeconds, 300)
        try verify(client)
        XCTAssertEqual(provider.keySetRequests, 1)
        provider.keys.withLock { $0 = [try! KeyProvider.secondKey().1] }
        advance(299)
        XCTAssertNoThrow(try verify(client), "the set is still fresh")
        XCTAssertEqual(provider.keySetRequests, 1)
        advance(1)
        XCTAssertEqual(errorKind { try self.verify(client) }, .tokenInvalid, "the withdrawn key no longer verifies")
        XCTAssertEqual(provider.keySetRequests, 2)
    }

    func testTheMaxAgeIsConfigurable() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks", .jwksMaxAgeSeconds: "60"])
        try verify(client)
        advance(59)
        try verify(client)
        XCTAssertEqual(provider.keySetRequests, 1)
        advance(1)
        try verify(client)
        XCTAssertEqual(provider.keySetRequests, 2)
    }

    func testAnAgedSetIsNotUsedWhileItsRefetchFails() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        try verify(client)
        advance(300)
        provider.keySetFailure.withLock { $0 = TelenoridError(.network, "connection refused") }
        XCTAssertEqual(errorKind { try self.verify(client) }, .network, "the transient error, not the old set")
        XCTAssertEqual(provider.keySetRequests, 2)
        advance(29)
        XCTAssertEqual(errorKind { try self.verify(client) }, .network, "the failure stands for 30 s")
        XCTAssertEqual(provider.keySetRequests, 2)
        provider.keySetFailure.withLock { $0 = nil }
        advance(1)
        XCTAssertNoThrow(try verify(client))
        XCTAssertEqual(provider.keySetRequests, 3)
    }

    func testTwentyUnknownKidsAgainstAFailingKeySetMakeAtMostTwoRequests() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        try verify(client)
        provider.keySetFailure.withLock { $0 = TelenoridError(.network, "connection refused") }
        for index in 0..<20 {
            XCTAssertNotNil(errorKind { try self.verify(client, keyID: "made-up-\(index)") })
        }
        XCTAssertEqual(provider.keySetRequests, 2)
        XCTAssertNoThrow(try verify(client), "known keys keep verifying from the fresh set")
        advance(30)
        XCTAssertNotNil(errorKind { try self.verify(client, keyID: "made-up-20") })
        XCTAssertEqual(provider.keySetRequests, 3, "one attempt again after 30 s")
    }

    func testTwentyTokensAgainstAKeySetThatNeverAnsweredMakeOneRequest() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        provider.keySetFailure.withLock { $0 = TelenoridError(.timeout, "timed out") }
        for index in 0..<20 {
            XCTAssertEqual(errorKind { try self.verify(client, keyID: "made-up-\(index)") }, .timeout)
        }
        XCTAssertEqual(provider.keySetRequests, 1)
    }

    func testARotatedKeyIsFetchedAtOnceThenUnknownKidsAreRateLimited() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        try verify(client)
        let (second, jwk) = try KeyProvider.secondKey()
        provider.keys.withLock { $0.append(jwk) }
        advance(1)
        XCTAssertNoThrow(try client.verifyIDToken(try provider.idToken(time, key: second, keyID: "rsa-2"), nonce: nil))
        XCTAssertEqual(provider.keySetRequests, 2)
        XCTAssertEqual(errorKind { try self.verify(client, keyID: "made-up") }, .tokenInvalid)
        XCTAssertEqual(provider.keySetRequests, 2)
    }

    /// While the refetch for an unknown kid fails, the library could not look at the provider's current set:
    /// the failure's kind stands (here a 5xx's `.temporarilyUnavailable`), not a verdict on the token.
    func testAnUnknownKidIsNotJudgedWhileItsRefetchFails() throws {
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        try verify(client)
        provider.keySetFailure.withLock {
            $0 = TelenoridError(.temporarilyUnavailable, "key set: HTTP 500", httpStatus: 500)
        }
        for index in 0..<3 {
            XCTAssertThrowsError(try verify(client, keyID: "new-\(index)")) {
                let error = $0 as? TelenoridError
                XCTAssertEqual(error?.kind, .temporarilyUnavailable, "attempt \(index)")
                XCTAssertEqual(error?.httpStatus, 500)
                XCTAssertTrue(error?.message.contains("no key with kid new-\(index)") == true, error?.message ?? "")
            }
        }
        XCTAssertEqual(provider.keySetRequests, 2, "one refetch within the interval")
        XCTAssertNoThrow(try verify(client), "known keys keep verifying from the fresh set")
        provider.keySetFailure.withLock { $0 = nil }
        advance(30)
        XCTAssertEqual(errorKind { try self.verify(client, keyID: "new-3") }, .tokenInvalid, "looked: not there")
        XCTAssertEqual(provider.keySetRequests, 3)
        XCTAssertEqual(errorKind { try self.verify(client, keyID: "new-4") }, .tokenInvalid)
    }
}
