import Synchronization
import XCTest
@testable import TelenoridCore

/// A provider's discovery document and key set served from memory: the keys can be withdrawn or added, the
/// advertised algorithms changed, and the key set made to fail.
final class KeyProvider: HTTPTransport {
    let issuer = "https://id.example.com"
    let keys = Locked<[String]>([JOSEFixtures.rsaJwk])
    let advertised = Locked<(idToken: [String]?, userinfo: [String]?)>((nil, nil))
    let keySetFailure = Locked<TelenoridError?>(nil)
    let requests = Locked<[String]>([])

    var keySetRequests: Int { requests.withLock { $0.filter { $0 == issuer + "/jwks" }.count } }

    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        requests.withLock { $0.append(request.url) }
        let body: String
        switch request.url {
        case issuer + "/.well-known/openid-configuration":
            func member(_ name: String, _ list: [String]?) -> String {
                list.map { #","\#(name)":[\#($0.map { "\"\($0)\"" }.joined(separator: ","))]"# } ?? ""
            }
            let (idToken, userinfo) = advertised.withLock { $0 }
            body =
                #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks""#
                + member("id_token_signing_alg_values_supported", idToken)
                + member("userinfo_signing_alg_values_supported", userinfo) + "}"
        case issuer + "/jwks":
            if let failure = keySetFailure.withLock({ $0 }) { throw failure }
            body = #"{"keys":[\#(keys.withLock { $0.joined(separator: ",") })]}"#
        default:
            return HTTPResponse(status: 404, headers: [], body: Array("not found".utf8))
        }
        return HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: Array(body.utf8))
    }

    func client(_ time: TestClock, _ extra: [ClientConfiguration.Setting: String] = [:]) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = issuer
        settings[.clientID] = "client"
        settings[.redirectURI] = "com.example.app:/callback"
        for (setting, value) in extra { settings[setting] = value }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: self,
            clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    /// An ID token for `client`, valid now, signed with `key` (the fixture RSA key by default).
    func idToken(_ time: TestClock, key: PrivateKey? = nil, keyID: String = "rsa-1") throws -> String {
        let now = time.now.load(ordering: .relaxed)
        let payload = Array(
            #"{"iss":"\#(issuer)","sub":"alice","aud":"client","iat":\#(now),"exp":\#(now + 600)}"#.utf8)
        return try JWS.sign(payload: payload, key: try key ?? PrivateKey(pem: JOSEFixtures.rsaPrivatePem), keyID: keyID)
    }

    /// The RFC 7515 A.2 key, a second RSA key: private, and public as a JWK with kid rsa-2.
    static func secondKey() throws -> (PrivateKey, String) {
        let n = try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key)["n"]?.stringValue)
        return (try PrivateKey(text: JOSETests.rfc7515A2Key), #"{"kty":"RSA","kid":"rsa-2","n":"\#(n)","e":"AQAB"}"#)
    }
}
