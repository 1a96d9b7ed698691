import XCTest
@testable import TelenoridCore

/// The host's own resource calls through a holder of tokens (an auth state, a machine's token) at a server
/// that wants DPoP nonces: what each answer means for the one retry (RFC 9449 §8.2 and §9, RFC 6750 §3.1,
/// RFC 9470), the same for every holder (`OIDCClient.resourceAnswered`).
struct ResourceAnswerScript {
    /// The holder's request headers for one request.
    let requestHeaders: () throws -> (authorization: SecretBytes, dpop: String?)
    /// The holder's reading of an answer: status, WWW-Authenticate, DPoP-Nonce, the Authorization value sent.
    let resourceAnswered: (Int, String?, String?, SecretBytes) -> ResourceVerdict
    /// How many tokens the holder has been given (token requests or refreshes at the provider).
    let tokensGiven: () -> Int

    func run() throws {
        func send() throws -> (authorization: SecretBytes, nonce: String?) {
            let headers = try requestHeaders()
            let nonce = try MemoryProvider.verifiedProof(try XCTUnwrap(headers.dpop)).claims["nonce"]?.stringValue
            return (headers.authorization, nonce)
        }
        func answer(_ status: Int, _ challenge: String?, nonce: String? = nil, sent: SecretBytes) -> Bool {
            resourceAnswered(status, challenge, nonce, sent) == .retry
        }
        var sent = try send()
        XCTAssertNil(sent.nonce)
        XCTAssertTrue(answer(401, #"DPoP error="use_dpop_nonce""#, nonce: "n-1", sent: sent.authorization))
        sent = try send()
        XCTAssertEqual(sent.nonce, "n-1")
        // A nonce on a success is the next one to use (§8.2), without a retry.
        XCTAssertFalse(answer(200, nil, nonce: " n-2 ", sent: sent.authorization))
        XCTAssertEqual(try send().nonce, "n-2")
        // Asked for a nonce without giving one: nothing to retry with.
        XCTAssertFalse(answer(401, #"DPoP error="use_dpop_nonce""#, sent: sent.authorization))

        let given = tokensGiven()
        XCTAssertTrue(answer(401, #"DPoP error="invalid_token", algs="ES256""#, sent: sent.authorization))
        let renewed = try send()
        XCTAssertEqual(tokensGiven(), given + 1, "the refused token is replaced before the retry")
        XCTAssertNotEqual(renewed.authorization.bytes, sent.authorization.bytes)
        // A late answer about the token already replaced is a retry that changes nothing.
        XCTAssertTrue(answer(401, nil, sent: sent.authorization))
        XCTAssertEqual(try send().authorization.bytes, renewed.authorization.bytes)
        XCTAssertEqual(tokensGiven(), given + 1)
        // A bare 401 to a request with a token refuses the token.
        XCTAssertTrue(answer(401, nil, sent: renewed.authorization))
        let current = try send().authorization
        XCTAssertNotEqual(current.bytes, renewed.authorization.bytes)
        // A step-up challenge (RFC 9470), a 403 and a value without a token are the answer.
        XCTAssertFalse(answer(401, #"Bearer error="insufficient_user_authentication""#, sent: current))
        XCTAssertFalse(answer(403, #"DPoP error="insufficient_scope""#, sent: current))
        XCTAssertFalse(answer(401, nil, sent: SecretBytes(Array(current.bytes.drop { $0 != 0x20 }.dropFirst()))))
        XCTAssertEqual(try send().authorization.bytes, current.bytes)
        XCTAssertEqual(tokensGiven(), given + 2)
    }
}
