// libFuzzer target: a ping to the client's notification endpoint (OpenID CIBA Core 1.0 §10.2) as a host hands
// it over: its Authorization header value before the first NUL byte, its body after it. The request under way
// has a fixed auth_req_id and client_notification_token. Properties beyond not crashing: a ping is accepted
// exactly when the header is the Bearer scheme (any case), one space and the token, and the body is a JSON
// object whose auth_req_id is the request's; a refusal is state_mismatch or malformed, never anything else.
@testable import TelenoridCore

private let token = "n0t1f1cat10n-t0ken-0f-43-characters-xxxxxxx"
private let id = "1c266114-a1be-4252-8ad1-04986c5b9ac1"

private final class NoNetwork: HTTPTransport {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        throw TelenoridError(.network, "no network in the fuzzer")
    }
}

private let auth: BackchannelAuthentication = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = "https://id.example.com"
    settings[.clientID] = "client"
    settings[.backchannelTokenDeliveryMode] = "ping"
    do throws(TelenoridError) {
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: NoNetwork())
        let response = try BackchannelAuthenticationResponse(
            json: Array(#"{"auth_req_id":"\#(id)","expires_in":120}"#.utf8))
        return try BackchannelAuthentication(
            client: client, response: response, now: 0, notificationToken: SecretBytes(Array(token.utf8)),
            signer: nil, resources: [])
    } catch {
        fatalError("fuzz_ciba_ping: the fixture is refused: \(error.message)")
    }
}()

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_ciba_ping: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCIBAPing(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let split = input.firstIndex(of: 0) ?? input.endIndex
    let header = String(decoding: input[..<split], as: UTF8.self)
    let body = split < input.endIndex ? Array(input[(split + 1)...]) : []
    let bearer =
        header.utf8.count == 7 + token.utf8.count && ASCII.lowercased(header.utf8.prefix(7)) == "bearer "
        && header.utf8.dropFirst(7).elementsEqual(token.utf8)
    let named = body.count <= 4096 && (try? JSON.parse(body).objectValue)?["auth_req_id"]?.stringValue == id
    do throws(TelenoridError) {
        try auth.handlePing(authorization: header, body: body)
        guard bearer && named else { fail("a ping was accepted with another token or auth_req_id", input) }
    } catch {
        guard [.stateMismatch, .malformed].contains(error.kind) else { fail("a ping refused as \(error.kind)", input) }
        if bearer && named { fail("a valid ping was refused: \(error.message)", input) }
    }
    return 0
}
