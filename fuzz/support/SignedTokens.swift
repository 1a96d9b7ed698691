// What the fuzz targets of signed tokens share (fuzz_access_token: RFC 9068 access tokens; fuzz_logout_token:
// Back-Channel Logout 1.0 logout tokens): an in-memory provider whose key set holds one ES256 key (kid k1),
// a client of it at a fixed time, and the three kinds of input the first byte picks. fuzz/run.sh compiles
// every file of fuzz/support/ into each target, so the names here are all under SignedTokens.
@testable import TelenoridCore

enum SignedTokens {
    static let issuer = "https://id.example.com"
    static let now: Int64 = 1_700_000_000

    static let key: DPoPKey = {
        guard let key = try? DPoPKey.generate(algorithm: "ES256") else { fatalError("fuzz: no ES256 key") }
        return key
    }()

    /// Discovery and the key set, nothing else.
    final class Provider: HTTPTransport, Sendable {
        func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
            let body: String
            switch request.url {
            case issuer + "/.well-known/openid-configuration":
                body = #"{"issuer":"\#(issuer)","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks"}"#
            case issuer + "/jwks":
                var jwk = key.publicJWK
                jwk.set("kid", .string("k1"))
                body = #"{"keys":[\#(JSON.serialize(.object(jwk)))]}"#
            default:
                return HTTPResponse(status: 404, headers: [], body: [])
            }
            return HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: Array(body.utf8))
        }
    }

    /// A client `clientID` of the provider, whose clock stands at `now`.
    static func client(_ clientID: String) -> OIDCClient? {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = issuer
        settings[.clientID] = clientID
        guard let configuration = try? ClientConfiguration(settings) else { return nil }
        return try? OIDCClient(configuration: configuration, transport: Provider(), clock: { now })
    }

    /// One input: `mode` (the first byte, modulo 3), `input` (the rest), the token made of it and the payload
    /// it was signed over (empty in mode 0).
    struct Input {
        let mode: UInt8
        let input: [UInt8]
        let token: String
        let payload: [UInt8]
    }

    /// The token the input makes: 0 the rest as it is, as the receiver gets it; 1 a JWS header, a NUL and a
    /// payload, signed with the provider's key under that header (so the checks past the signature are
    /// reached); 2 a payload signed under `header`, the one a provider writes. Nil for input that makes none.
    static func input(_ data: UnsafePointer<UInt8>, _ size: Int, header: String) -> Input? {
        guard size > 0 else { return nil }
        let mode = data[0] % 3
        let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
        switch mode {
        case 0:
            return Input(mode: mode, input: input, token: String(decoding: input, as: UTF8.self), payload: [])
        case 1:
            guard let nul = input.firstIndex(of: 0) else { return nil }
            let payload = Array(input[(nul + 1)...])
            guard let token = signed(header: Array(input[..<nul]), payload: payload) else { return nil }
            return Input(mode: mode, input: input, token: token, payload: payload)
        default:
            guard let token = signed(header: Array(header.utf8), payload: input) else { return nil }
            return Input(mode: mode, input: input, token: token, payload: input)
        }
    }

    static func signed(header: [UInt8], payload: [UInt8]) -> String? {
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        guard let signature = try? JWS.signature(over: input, key: key.privateKey) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }
}
