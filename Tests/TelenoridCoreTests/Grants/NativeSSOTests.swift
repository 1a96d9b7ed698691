import XCTest
@testable import TelenoridCore

/// OpenID Connect Native SSO for Mobile Apps 1.0: the device secret read from a token response, kept with the
/// tokens and in the serialized state (§3.4), and the ds_hash that binds an ID token to it, checked on the
/// tokens a sign-in receives and on the ID token another app hands over. (The whole exchange, §4, runs against
/// the fault provider double in Tests/python/test_native_sso.py: no provider here implements Native SSO.)
final class NativeSSOTests: XCTestCase {
    private let time = TestClock()
    private let secret = SecretBytes(Array("ds-6f1c2b9e-device".utf8))

    /// §3.4: made as at_hash is, here by RS256's SHA-256: the base64url of its left 16 bytes.
    private func dsHash(_ secret: SecretBytes) -> String {
        Base64URL.encode(Crypto.sha256(secret.bytes).prefix(16))
    }

    private func idToken(_ extra: String) throws -> String {
        let now = time.now.load(ordering: .relaxed)
        let payload = Array(
            #"{"iss":"https://id.example.com","sub":"alice","aud":"client","iat":\#(now),"exp":\#(now + 600)\#(extra)}"#
                .utf8)
        return try JWS.sign(payload: payload, key: try PrivateKey(pem: JOSEFixtures.rsaPrivatePem), keyID: "rsa-1")
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, _ message: String,
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, kind, error?.message ?? "\($0)", line: line)
            XCTAssertTrue(error?.message.contains(message) == true, error?.message ?? "", line: line)
        }
    }

    func testTheDeviceSecretIsReadKeptAndReplaced() throws {
        let object = try XCTUnwrap(
            JSON.parse(#"{"access_token":"a","token_type":"Bearer","device_secret":"ds-1"}"#).objectValue)
        let first = TokenSet(response: try TokenResponse(object), receivedAt: 0, previous: nil)
        XCTAssertEqual(first.deviceSecret?.string, "ds-1")
        let refreshed = try XCTUnwrap(JSON.parse(#"{"access_token":"b","token_type":"Bearer"}"#).objectValue)
        XCTAssertEqual(
            TokenSet(response: try TokenResponse(refreshed), receivedAt: 0, previous: first).deviceSecret?.string,
            "ds-1",
            "a refresh without one keeps it")
        let rotated = try XCTUnwrap(
            JSON.parse(#"{"access_token":"c","token_type":"Bearer","device_secret":"ds-2"}"#).objectValue)
        XCTAssertEqual(
            TokenSet(response: try TokenResponse(rotated), receivedAt: 0, previous: first).deviceSecret?.string, "ds-2")
        let wrong = try XCTUnwrap(
            JSON.parse(#"{"access_token":"a","token_type":"Bearer","device_secret":7}"#).objectValue)
        XCTAssertThrowsError(try TokenResponse(wrong))
    }

    func testTheDeviceSecretIsSerializedAsASecretAndRestored() throws {
        let client = try KeyProvider().client(time)
        var tokens = TokenSet(
            accessToken: SecretBytes(Array("at".utf8)), tokenType: "Bearer", accessTokenExpiresAt: nil,
            refreshToken: nil, idToken: nil, scope: "openid device_sso")
        tokens.deviceSecret = secret
        let saved = client.authState(tokens).serialized()
        XCTAssertEqual(try JSON.parse(saved.bytes).objectValue?["device_secret"]?.stringValue, secret.string)
        let restored = try client.restoreAuthState(saved)
        XCTAssertEqual(restored.tokens?.deviceSecret?.string, secret.string)
        var withNumber = saved.string
        withNumber = withNumber.replacingOccurrences(of: "\"\(secret.string)\"", with: "7")
        assertKind(.malformed, try client.restoreAuthState(SecretBytes(Array(withNumber.utf8))), "device_secret")
    }

    func testAnIDTokenThatCameWithADeviceSecretMustCarryItsHash() throws {
        let provider = KeyProvider()
        let client = try provider.client(time)
        let bound = try idToken(#","ds_hash":"\#(dsHash(secret))""#)
        XCTAssertNoThrow(
            try client.validateIDToken(bound, expectations: IDTokenExpectations(nonce: nil, deviceSecret: secret)))
        let other = SecretBytes(Array("another".utf8))
        assertKind(
            .tokenInvalid,
            try client.validateIDToken(bound, expectations: IDTokenExpectations(nonce: nil, deviceSecret: other)),
            "ds_hash does not match")
        assertKind(
            .tokenInvalid,
            try client.validateIDToken(
                try idToken(""), expectations: IDTokenExpectations(nonce: nil, deviceSecret: secret)),
            "has no ds_hash")
        // Without a device secret, ds_hash is not looked at.
        XCTAssertNoThrow(try client.validateIDToken(bound, expectations: IDTokenExpectations(nonce: nil)))
    }

    func testTheHandedOverPairIsCheckedBeforeAnythingIsSent() throws {
        let bound = try idToken(#","ds_hash":"\#(dsHash(secret))""#)
        XCTAssertEqual(try OIDCClient.presentedIDToken(bound, deviceSecret: secret).claims["sub"]?.stringValue, "alice")
        assertKind(
            .invalidArgument, try OIDCClient.presentedIDToken(bound, deviceSecret: SecretBytes(Array("x".utf8))),
            "ds_hash")
        assertKind(.invalidArgument, try OIDCClient.presentedIDToken(try idToken(""), deviceSecret: secret), "ds_hash")
        assertKind(.invalidArgument, try OIDCClient.presentedIDToken("a.b", deviceSecret: secret), "not a JWS")
        assertKind(.invalidArgument, try OIDCClient.presentedIDToken(bound, deviceSecret: SecretBytes([])), "empty")
        let provider = KeyProvider()
        let client = try provider.client(time, [.scope: "profile"])
        assertKind(.invalidArgument, try client.nativeSSO(idToken: bound, deviceSecret: secret, scope: nil), "openid")
        XCTAssertEqual(provider.requests.withLock { $0.count }, 0, "nothing was sent")
    }
}
