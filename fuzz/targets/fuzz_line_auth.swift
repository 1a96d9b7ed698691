// libFuzzer target: the Aloha line authentication parsers (AlohaMessages) and URL policy (AlohaPolicy):
// everything the exchange reads from the network. The first byte picks what the rest is:
//   0  the prepare response body          → AlohaMessages.injectPath(fromPrepare:)
//   1  the session response body          → AlohaMessages.session(from:)
//   2  an injectPath value                → AlohaPolicy.injectURL
//   3  a redirect's Location header value → AlohaPolicy.redirectURL
//
// Properties besides not crashing (a violation traps, which libFuzzer reports with the input saved):
//  - an accepted injectPath is a non-empty string;
//  - an accepted session has a printable-ASCII uuid of at most 256 bytes and 1 <= exp <= 86400;
//  - an accepted inject URL is http or https on the configured Aloha host, with no user info or fragment;
//  - an accepted redirect is https on the configured host and port, and the transport's own policy
//    (RequestTarget, with libcurl's URL parser) never calls it insecure.
@testable import TelenoridCore

private let policy: AlohaPolicy = {
    do throws(TelenoridError) { return try AlohaPolicy(alohaURL: "https://aloha.example:8443/base/") } catch {
        fatalError("fuzz_line_auth: the fixed Aloha URL was refused: \(error.message)")
    }
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    let text = String(decoding: input.prefix(512), as: UTF8.self)
    fatalError("fuzz_line_auth: \(what); input (\(input.count) bytes, first 512 shown): \(text)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineAuth(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch data[0] % 4 {
    case 0:
        if let path = try? AlohaMessages.injectPath(fromPrepare: bytes), path.isEmpty {
            fail("empty injectPath accepted", bytes)
        }
    case 1:
        if let (uuid, seconds) = try? AlohaMessages.session(from: bytes) {
            guard !uuid.isEmpty, uuid.utf8.count <= 256, uuid.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                fail("a session uuid that is not a printable token was accepted", bytes)
            }
            guard seconds >= 1, seconds <= AlohaMessages.maxValiditySeconds else {
                fail("exp \(seconds) accepted", bytes)
            }
        }
    case 2:
        if let url = try? policy.injectURL(text) {
            guard let uri = try? URI(parsing: url) else { fail("accepted inject URL does not parse", bytes) }
            guard uri.scheme == "http" || uri.scheme == "https", uri.host == "aloha.example",
                uri.userInfo == nil, uri.fragment == nil
            else {
                fail("inject URL off the Aloha host accepted: \(url)", bytes)
            }
        }
    default:
        if let url = try? policy.redirectURL(text) {
            guard let uri = try? URI(parsing: url), uri.scheme == "https", uri.host == "aloha.example",
                uri.port == 8443
            else {
                fail("redirect off the Aloha host accepted: \(url)", bytes)
            }
            // The transport re-checks the same text with libcurl's parser before connecting; it may refuse
            // what libcurl reads differently, but must never call an https Aloha redirect insecure.
            do throws(TelenoridError) { _ = try RequestTarget(url, allowPlainHTTP: false) } catch {
                if error.kind == .insecure { fail("policy and transport disagree on \(url): \(error.message)", bytes) }
            }
        }
    }
    return 0
}
