// libFuzzer target: AuthorizationDetails (RFC 9396 §2) from host text, `init(json:)`, and from a parsed
// token response value, `init(response:)`.
//
// Properties beyond not crashing (a violation traps):
//  - each entry point fails only with its own kind: .invalidArgument for host text, .invalidResponse for
//    a response value;
//  - what the host entry point accepts, the response entry point accepts too, to an equal value (the
//    host's limits are the tighter ones);
//  - a value either accepts re-parses from its `text` to an equal value with the very same `text`, and
//    `text` is the compact serialization of `value`.
@testable import TelenoridCore

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    let text = String(decoding: input.prefix(512), as: UTF8.self)
    fatalError("fuzz_authorization_details: \(what); input (\(input.count) bytes, first 512 shown): \(text)")
}

private func checkRoundTrip(_ details: AuthorizationDetails, _ input: [UInt8]) {
    guard JSON.serialize(details.value) == details.text else { fail("text is not the serialization of value", input) }
    let again: AuthorizationDetails
    do { again = try AuthorizationDetails(json: details.text) } catch {
        fail("text does not parse again: \(error.message)", input)
    }
    guard again == details, again.text == details.text else { fail("text parses to another value", input) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthorizationDetails(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    var fromHost: AuthorizationDetails?
    if let text = String(validating: bytes, as: UTF8.self) {
        do { fromHost = try AuthorizationDetails(json: text) } catch {
            guard error.kind == .invalidArgument else {
                fail("host text failed with \(error.kind): \(error.message)", bytes)
            }
        }
    }
    if let fromHost { checkRoundTrip(fromHost, bytes) }

    guard let value = try? JSON.parse(bytes) else {
        if fromHost != nil { fail("accepted as host text but not JSON under the default limits", bytes) }
        return 0
    }
    do {
        let fromResponse = try AuthorizationDetails(response: value)
        checkRoundTrip(fromResponse, bytes)
        if let fromHost, fromHost != fromResponse { fail("the two entry points give different values", bytes) }
    } catch {
        guard error.kind == .invalidResponse else {
            fail("response value failed with \(error.kind): \(error.message)", bytes)
        }
        if fromHost != nil { fail("accepted as host text but refused as a response: \(error.message)", bytes) }
    }
    return 0
}
