import XCTest
@testable import TelenoridCore

/// A host-held key's lifetime on the client: setting another signer (or none) retires the old one for
/// everything that holds it, after the calls in flight, and the FAPI 2.0 profile's algorithms for the DPoP
/// signer (§5.4.1 item 1).
final class HostSignerLifetimeTests: XCTestCase {
    let provider = KeyProvider()

    func signer(_ calls: Locked<Int>, jwk: String = ClientKeyTests.publicJWK, algorithm: String = "ES256") throws
        -> HostKeySigner
    {
        let key = try PrivateKey(text: ClientKeyTests.keystoreKey)
        return try HostKeySigner(algorithm: algorithm, publicJWK: try XCTUnwrap(try JSON.parse(jwk).objectValue)) {
            input throws(TelenoridError) in
            calls.withLock { $0 += 1 }
            return try JWS.signature(over: String(decoding: input, as: UTF8.self), key: key)
        }
    }

    func failure(_ body: () throws -> Void) -> TelenoridError? {
        do { try body() } catch { return error as? TelenoridError }
        return nil
    }

    func testARemovedDPoPSignerIsNeverCalledAgain() throws {
        let client = try provider.client(TestClock())
        let calls = Locked(0)
        let held = try signer(calls)
        try client.setDPoPSigner(held)
        XCTAssertEqual(try held.signature(over: Array("a.b".utf8)).count, 64)
        try client.setDPoPSigner(nil)
        let error = failure { _ = try held.signature(over: Array("a.b".utf8)) }
        XCTAssertEqual(error?.kind, .configuration)
        XCTAssertEqual(error?.message, "the DPoP signer was removed")
        XCTAssertEqual(calls.withLock { $0 }, 1)
    }

    func testTheSameKeySetAgainTakesOverItsHoldersCalls() throws {
        let client = try provider.client(TestClock())
        let first = Locked(0), second = Locked(0)
        let held = try signer(first)
        try client.setDPoPSigner(held)
        try client.setDPoPSigner(try signer(second))
        _ = try held.signature(over: Array("a.b".utf8))
        XCTAssertEqual([first.withLock { $0 }, second.withLock { $0 }], [0, 1])
        // Another key: what the first signer's holders sign is no longer theirs to sign.
        try client.setDPoPSigner(
            try signer(
                Locked(0),
                jwk:
                    #"{"crv":"P-256","kty":"EC","x":"ITo6agWD0UM9aMzcz0CHpZifeKbycJkn8CiIrvyX3O8","y":"nP7_u8xeo_TugkelDEtdSsT1trqGNSl32pF3FidYnyw"}"#
            ))
        XCTAssertEqual(
            failure { _ = try held.signature(over: Array("a.b".utf8)) }?.message,
            "the DPoP signer was replaced by one for another key")
    }

    func testARemovedClientSignerFailsTheRequestThatHeldIt() throws {
        let client = try provider.client(TestClock(), [.clientAuthMethod: "private_key_jwt"])
        let held = try signer(Locked(0))
        try client.setClientSigner(held)
        try client.setClientSigner(nil)
        let error = failure { _ = try held.signature(over: Array("a.b".utf8)) }
        XCTAssertEqual(error?.kind, .configuration)
        XCTAssertEqual(error?.message, "the client signer was removed")
    }

    func testTheFAPI2ProfileTakesOnlyItsAlgorithmsForTheDPoPSigner() throws {
        let client = try provider.client(TestClock(), fapi2PrivateKeyJWTSettings)
        let rsa = try rs256HostSigner()
        let error = failure { try client.setDPoPSigner(rsa) }
        XCTAssertEqual(error?.kind, .configuration)
        XCTAssertTrue(error?.message.contains("§5.4.1") ?? false, error?.message ?? "")
        XCTAssertNil(client.dpopHostKeySigner)
        XCTAssertNoThrow(try client.setDPoPSigner(try signer(Locked(0))))
        // Outside the profile RS256 is the host's choice.
        XCTAssertNoThrow(try provider.client(TestClock()).setDPoPSigner(rsa))
    }
}
