// libFuzzer target: CallbackScan, the one pass that reads a plain callback, against the full parse that
// reads every other callback (URI(parsing:), then FormParameters(parsing:)). The scan may leave any
// redirect to the full parse; what it does read must be exactly what the full parse reads.
//
// Each input is tried as it is and after each configuration's redirect URI (the scan reads only redirects
// that begin with it), on three configurations: a custom scheme in query response mode, loopback http in
// fragment mode, and https under the FAPI 2.0 Security Profile (iss required, RFC 9207).
//
// Properties (a violation traps):
//  - a redirect the scan reads is a URI at the configured redirect URI (same origin and path) whose query
//    (fragment in fragment mode) is the scan's component, and that component parses as a form;
//  - the form's pairs are the scan's parameters, in order; its state, code, iss and error are the scan's,
//    present or absent alike, decoded alike; `decodes` agrees with the decoded value, and `isEncoded` with
//    whether decoding changes it;
//  - a callback handleCallback accepts on the scan's reading (acceptPlainCallback) is accepted by the full
//    check (parseCallback) on a fresh request, with the same code and parameters.
@testable import TelenoridCore

private let state = "218gz18yveu1ybajwh2g1h3g"
private let issuer = "https://id.example.com"

private func fail(_ what: String, _ input: String) -> Never {
    fatalError("fuzz_callback_scan: \(what); input: \(input.prefix(512))")
}

private struct Setup {
    let redirectURI: String
    let fragment: Bool
    let fapi2: Bool
}

private let setups = [
    Setup(redirectURI: "telenorid-example://authcallback/", fragment: false, fapi2: false),
    Setup(redirectURI: "http://127.0.0.1:53682/callback", fragment: true, fapi2: false),
    Setup(redirectURI: "https://app.example.com/cb", fragment: false, fapi2: true)
]

private func build(_ setup: Setup) -> PendingAuthorization {
    do {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = issuer
        settings[.clientID] = "client"
        settings[.redirectURI] = setup.redirectURI
        settings[.authorizationEndpoint] = "https://id.example.com/oauth/authorize"
        if setup.fapi2 {
            settings[.securityProfile] = "fapi2"
            settings[.dpopSigningAlgorithm] = "ES256"
        }
        var request = AuthorizationRequest(configuration: try ClientConfiguration(settings))
        if setup.fragment { try request.set(.responseMode, "fragment") }
        return try request.build(
            state: state, nonce: "n", pkce: try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    } catch {
        fatalError("fuzz_callback_scan: the fixed pending authorization can't be built: \(error.message)")
    }
}

nonisolated(unsafe) private var pendings: [PendingAuthorization] = setups.map(build)
/// What the scan reads of a redirect, as strings.
private struct Reading {
    let component: String
    let parameters: FormParameters
    let fields: [String?]  // state, code, iss, error, decoded
}

private func scan(_ text: String, _ setup: Setup) -> Reading? {
    var text = text, redirectURI = setup.redirectURI
    return text.withUTF8 { bytes in
        redirectURI.withUTF8 { prefix -> Reading? in
            guard let scan = CallbackScan(bytes, redirectURI: prefix, inFragment: setup.fragment) else { return nil }
            var fields: [String?] = []
            for range in [scan.state, scan.code, scan.iss, scan.error] {
                guard let range else { fields.append(nil); continue }
                let value = scan.decoded(range)
                guard scan.decodes(range, to: value) else {
                    fail("decodes disagrees with decoded", String(decoding: bytes, as: UTF8.self))
                }
                guard scan.isEncoded(range) == (value != String(decoding: scan.slice(range), as: UTF8.self)) else {
                    fail("isEncoded disagrees with decoding", String(decoding: bytes, as: UTF8.self))
                }
                if value != issuer && scan.decodes(range, to: issuer) {
                    fail("decodes matches a value it does not decode to", String(decoding: bytes, as: UTF8.self))
                }
                fields.append(value)
            }
            return Reading(
                component: String(decoding: scan.slice(scan.component), as: UTF8.self),
                parameters: CallbackScan.parameters(bytes, in: scan.component), fields: fields)
        }
    }
}

private func compare(_ text: String, _ index: Int) {
    let setup = setups[index]
    guard let reading = scan(text, setup) else { return }
    let uri: URI
    do { uri = try URI(parsing: text) } catch { fail("scanned, but URI(parsing:) refuses it: \(error.message)", text) }
    guard uri.hasSameOriginAndPath(as: pendings[index].redirect.uri) else {
        fail("scanned, but not at the redirect URI", text)
    }
    guard let component = setup.fragment ? uri.fragment : uri.query, component == reading.component else {
        fail("the scan's component is not the URI's \(setup.fragment ? "fragment" : "query")", text)
    }
    let form: FormParameters
    do { form = try FormParameters(parsing: component[...]) } catch {
        fail("scanned, but the form does not parse: \(error.message)", text)
    }
    guard form == reading.parameters else { fail("the scan's parameters are not the form's", text) }
    for (name, value) in zip(["state", "code", "iss", "error"], reading.fields) where form[name] != value {
        fail("the scan's \(name) is not the form's", text)
    }

    guard let fast = pendings[index].acceptPlainCallback(text) else { return }
    pendings[index] = build(setup)
    let full: AuthorizationCallback
    do { full = try build(setup).parseCallback(text) } catch {
        fail("acceptPlainCallback accepted what parseCallback refuses as \(error.kind): \(error.message)", text)
    }
    guard fast.code == full.code, fast.parameters == full.parameters, fast.parameters == form else {
        fail("acceptPlainCallback and parseCallback read different callbacks", text)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCallbackScan(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Hosts hand over Swift/C strings; bytes that are not UTF-8 arrive repaired (U+FFFD).
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for index in setups.indices {
        compare(text, index)
        compare(setups[index].redirectURI + text, index)
    }
    return 0
}
