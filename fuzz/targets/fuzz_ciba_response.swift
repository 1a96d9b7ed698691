// libFuzzer target: a backchannel authentication response (OpenID CIBA Core 1.0 §7.3, §13) as the provider
// sends it. The first byte picks the HTTP status, the rest is the body. Properties beyond not crashing: only
// a 200 is ever an acknowledgement; an accepted one has an auth_req_id of 1 to 1024 printable ASCII bytes, an
// expires_in from 1 s to a day and an interval, when given, from 0 to a day (the wait's arithmetic and the
// token request's form rely on these); a refusal with an OAuth error keeps its code.
@testable import TelenoridCore

private let statuses = [200, 400, 401, 403, 429, 500, 503, 302]

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_ciba_response: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCIBAResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let status = statuses[Int(data[0]) % statuses.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let response = HTTPResponse(status: status, headers: [("content-type", "application/json")], body: body)
    let parsed: BackchannelAuthenticationResponse
    do { parsed = try BackchannelAuthenticationResponse(response, now: 1_700_000_000) } catch {
        if [.authorizationError, .clientRejected].contains(error.kind) && error.oauthError == nil {
            fail("an OAuth error without its code", body)
        }
        if status == 200 && error.kind != .invalidResponse { fail("a 200 refused as \(error.kind)", body) }
        return 0
    }
    guard status == 200 else { fail("an HTTP \(status) was taken as an acknowledgement", body) }
    let id = parsed.authReqID.utf8
    guard (1...1024).contains(id.count), id.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
        fail("an unusable auth_req_id was accepted", body)
    }
    guard (1...86_400).contains(parsed.expiresIn), parsed.interval.map({ (0...86_400).contains($0) }) ?? true else {
        fail("expires_in \(parsed.expiresIn) or interval \(String(describing: parsed.interval)) accepted", body)
    }
    let object = try? JSON.parse(body).objectValue
    guard object?["auth_req_id"]?.stringValue == parsed.authReqID else {
        fail("the auth_req_id is not the body's", body)
    }
    return 0
}
