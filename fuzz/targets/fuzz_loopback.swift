// libFuzzer target: the loopback redirect listener's reading of what arrives on its socket
// (LoopbackRequest): finding the end of a request head, and the request line, Host and state in it.
//
// Properties besides not crashing (a violation traps):
//  - the end of the head lies inside the input, just after a line feed;
//  - a request accepted as the redirect is a GET whose target is printable ASCII and whose path (up to
//    `?` or `#`) is exactly the listener's path, so the URL handed to the host is
//    http://127.0.0.1:<port> + that target and nothing a browser could not have sent;
//  - it names the listener's own host and port (DNS rebinding, RFC 8252 §8.3);
//  - expecting a state only ever narrows: accepted with the state expected means accepted, with the same
//    target, without it; and the host's own reading of that URL (URI, then the query's parameters, as
//    handleCallback does), when it can read it, finds exactly that state.
@testable import TelenoridCore

private let path = "/callback"
private let port: UInt16 = 53682
private let state = "af0ifjsldkj"

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_loopback: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoopback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let end = LoopbackRequest.endOfHead(bytes) {
        guard end >= 2, end <= bytes.count, bytes[end - 1] == 0x0A else { fail("head end \(end) misplaced", bytes) }
    }
    let any = LoopbackRequest.outcome(ofHead: bytes, path: path, port: port, state: nil)
    if case .redirect(let target) = any {
        guard bytes.starts(with: Array("GET ".utf8)) else { fail("a non-GET request accepted", bytes) }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            fail("a target with non-printable bytes accepted", bytes)
        }
        let targetPath = target.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard targetPath.elementsEqual(path.utf8) else { fail("a target on another path accepted: \(target)", bytes) }
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        guard text.contains("127.0.0.1:\(port)") || text.contains("localhost:\(port)") else {
            fail("a request for another host accepted", bytes)
        }
    }
    let checked = LoopbackRequest.outcome(ofHead: bytes, path: path, port: port, state: state)
    if case .redirect(let target) = checked {
        guard checked == any else { fail("accepted only when a state is expected", bytes) }
        // A URL the host can't read at all it refuses anyway; one it can must carry the state.
        if let uri = try? URI(parsing: "http://127.0.0.1:\(port)" + target),
            let parameters = try? FormParameters(parsing: (uri.query ?? "")[...]), parameters["state"] != state
        {
            fail("accepted with a state the host reads differently: \(target)", bytes)
        }
    }
    return 0
}
