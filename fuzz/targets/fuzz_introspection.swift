// libFuzzer target: a token introspection answer (RFC 7662 §2.2, §2.3) as the provider sends it, read by
// `OIDCClient.introspectionAnswer`, then kept in and read back from the resource server's answer cache. The
// first byte picks the HTTP status, the rest is the body. Properties beyond not crashing: only a 200 is ever
// an answer; an accepted one is a JSON object whose `active` is a boolean, whose registered string members
// are strings and NumericDates numbers that read as whole seconds; its JSON text parses back to the same
// object; the cache never hands out an answer at or past its `exp` nor after its max age.
@testable import TelenoridCore

private let statuses = [200, 400, 401, 403, 429, 500, 503, 302]

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_introspection: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntrospection(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let status = statuses[Int(data[0]) % statuses.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let response = HTTPResponse(status: status, headers: [("content-type", "application/json")], body: body)
    let now: Int64 = 1_700_000_000
    let info: TokenInfo
    do { info = try OIDCClient.introspectionAnswer(response, now: now) } catch {
        if [.authorizationError, .clientRejected].contains(error.kind) && error.oauthError == nil {
            fail("an OAuth error without its code", body)
        }
        return 0
    }
    guard status == 200 else { fail("an HTTP \(status) was taken as an answer", body) }
    guard case .bool(let active)? = info.claims["active"], active == info.active else {
        fail("active is not the body's boolean", body)
    }
    for name in TokenInfo.stringMembers where info.claims[name] != nil && info.string(name) == nil {
        fail("\(name) accepted as a non-string", body)
    }
    for name in TokenInfo.timeMembers where info.claims[name] != nil && info.seconds(name) == nil {
        fail("\(name) accepted as a non-NumericDate", body)
    }
    guard (try? JSON.parse(info.json).objectValue) == info.claims else {
        fail("the JSON text does not round-trip", body)
    }

    let cache = IntrospectionCache()
    let key = Crypto.sha256(body)
    cache.keep(info, for: key, now: now, maxAge: 60)
    let exp = info.seconds("exp")
    for later in [now, now + 1, now + 59, now + 60, exp ?? now, (exp ?? now) &- 1] {
        guard cache.answer(for: key, now: later) != nil else { continue }
        if later >= now + 60 { fail("an answer handed out after its max age", body) }
        if let exp, later >= exp { fail("an answer handed out at or past its exp", body) }
        if later < now { fail("an answer handed out before it was kept", body) }
    }
    return 0
}
