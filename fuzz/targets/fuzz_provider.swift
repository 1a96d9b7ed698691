// libFuzzer target: what a provider sends back — discovery documents, key sets, token responses, ID
// tokens and error bodies. The first byte picks the parser, the rest is its input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProvider(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 5 {
    case 0:
        _ = try? ProviderMetadata(json: bytes, expectedIssuer: "https://id.example.com")
    case 1:
        if let set = try? JWKSet(json: bytes) {
            for key in set.keys { _ = key.canVerify(algorithm: "RS256") }
        }
    case 2:
        if let object = try? JSON.parse(bytes).objectValue { _ = try? TokenResponse(object) }
    case 3:
        if let text = String(validating: bytes, as: UTF8.self), let jws = try? JWS(compact: text) {
            _ = try? jws.verify(hmacSecret: Array("secret".utf8))
        }
    default:
        _ = OAuthErrorResponse.error(from: HTTPResponse(status: 400, headers: [], body: bytes), during: "fuzz")
    }
    return 0
}
