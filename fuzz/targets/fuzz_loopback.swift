// libFuzzer target: the loopback redirect listener's reading of what arrives on its socket
// (LoopbackRequest): finding the end of a request head, and the request line in it.
//
// Properties besides not crashing (a violation traps):
//  - the end of the head lies inside the input, just after a line feed;
//  - a request accepted as the redirect is a GET whose target is printable ASCII and whose path (up to
//    `?` or `#`) is exactly the listener's path, so the URL handed to the host is
//    http://127.0.0.1:<port> + that target and nothing a browser could not have sent.
@testable import TelenoridCore

private let path = "/callback"

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_loopback: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoopback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let end = LoopbackRequest.endOfHead(bytes) {
        guard end >= 2, end <= bytes.count, bytes[end - 1] == 0x0A else { fail("head end \(end) misplaced", bytes) }
    }
    if case .redirect(let target) = LoopbackRequest.target(ofHead: bytes, path: path) {
        guard bytes.starts(with: Array("GET ".utf8)) else { fail("a non-GET request accepted", bytes) }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { fail("a target with non-printable bytes accepted", bytes) }
        let targetPath = target.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard targetPath.elementsEqual(path.utf8) else { fail("a target on another path accepted: \(target)", bytes) }
    }
    return 0
}
