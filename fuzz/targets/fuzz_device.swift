// libFuzzer target: a device authorization response (RFC 8628 §3.2), the first byte choosing its HTTP status
// (200 mostly, else an error status), the rest its body, through DeviceAuthorizationResponse and then a whole
// grant over an in-memory transport whose token endpoint answers authorization_pending once, then tokens.
//
// Properties besides not crashing (a violation traps, which libFuzzer reports with the input saved):
//  - only a 200 answer is ever accepted;
//  - an accepted response has a device code of 1 to 4096 bytes, a user code of 1 to 64 bytes without control
//    characters, verification URIs that parse and are https (http only on loopback), expires_in from 1 to a
//    day and an interval that is absent or from 0 to a day;
//  - the schedule made from it polls at least every second and gives up within the client's hour;
//  - the grant started from that answer ends in an auth state holding the token endpoint's access token,
//    after sleeps that add up to no more than the deadline, and a second wait is .consumed.
@testable import TelenoridCore
import Synchronization

private let issuer = "https://id.example.com"
private let statuses = [200, 200, 200, 200, 400, 401, 429, 500, 302]
private let pending = Array(#"{"error":"authorization_pending"}"#.utf8)
private let tokens = Array(#"{"access_token":"at","token_type":"Bearer","expires_in":60}"#.utf8)

private func fail(_ what: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz_device: \(what); input: \(String(decoding: input.prefix(512), as: UTF8.self))")
}

/// The device endpoint answers the input; the token endpoint answers pending once, then tokens.
private final class FakeTransport: HTTPTransport, @unchecked Sendable {
    let device: HTTPResponse
    private var polls = 0  // one thread per grant
    init(device: HTTPResponse) { self.device = device }
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        switch request.url {
        case "\(issuer)/device": return device
        case "\(issuer)/token":
            polls += 1
            return HTTPResponse(
                status: polls == 1 ? 400 : 200, headers: [("content-type", "application/json")],
                body: polls == 1 ? pending : tokens)
        default: return HTTPResponse(status: 404, headers: [], body: [])
        }
    }
}

private let configuration: ClientConfiguration = {
    var settings = ClientConfiguration.Settings()
    settings[.issuer] = issuer
    settings[.clientID] = "client"
    settings[.redirectURI] = "app://cb"
    settings[.tokenEndpoint] = "\(issuer)/token"
    settings[.deviceAuthorizationEndpoint] = "\(issuer)/device"
    do throws(TelenoridError) { return try ClientConfiguration(settings) } catch {
        fatalError("fuzz_device: the fixed configuration was refused: \(error.message)")
    }
}()

private func check(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let status = statuses[Int(first) % statuses.count]
    let answer = HTTPResponse(
        status: status, headers: [("content-type", "application/json")], body: Array(input.dropFirst()))
    let now: Int64 = 1_700_000_000
    guard let response = try? DeviceAuthorizationResponse(answer, now: now) else { return }
    guard status == 200 else { fail("an HTTP \(status) answer was accepted", input) }
    guard (1...DeviceAuthorizationResponse.maxDeviceCodeBytes).contains(response.deviceCode.count) else {
        fail("a device code of \(response.deviceCode.count) bytes", input)
    }
    let userCode = response.userCode
    guard (1...DeviceAuthorizationResponse.maxUserCodeBytes).contains(userCode.utf8.count),
        !userCode.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    else {
        fail("an unusable user code was accepted", input)
    }
    for uri in [response.verificationURI, response.verificationURIComplete].compactMap({ $0 }) {
        guard let parsed = try? URI(parsing: uri), parsed.isSecureEndpoint else {
            fail("an insecure verification URI was accepted: \(uri)", input)
        }
    }
    guard (1...TokenPolling.implausibleSeconds).contains(response.expiresIn),
        response.interval.map({ (0...TokenPolling.implausibleSeconds).contains($0) }) ?? true
    else {
        fail("expires_in \(response.expiresIn) or interval \(String(describing: response.interval))", input)
    }
    let schedule = TokenPolling.Schedule(interval: response.interval, expiresIn: response.expiresIn, now: now)
    guard schedule.interval >= 1, (1...TokenPolling.maximumLifetime).contains(schedule.expiresAt - now) else {
        fail("a schedule polling every \(schedule.interval) s until +\(schedule.expiresAt - now) s", input)
    }

    // The whole grant, in time that passes only as the sleeps say.
    let time = Atomic<Int64>(now)
    let slept = Atomic<Int64>(0)
    let client: OIDCClient
    do {
        client = try OIDCClient(
            configuration: configuration, transport: FakeTransport(device: answer),
            clock: { time.load(ordering: .relaxed) },
            sleeps: CancellableSleeps { seconds in
                time.add(seconds, ordering: .relaxed)
                slept.add(seconds, ordering: .relaxed)
            })
    } catch {
        fatalError("fuzz_device: the client was refused: \(error.message)")
    }
    let device: DeviceAuthorization
    do { device = try client.startDeviceAuthorization(nil) } catch {
        fail("a response the parser accepted failed the start: \(error.message)", input)
    }
    do {
        let state = try device.wait()
        guard state.tokens?.accessToken.string == "at" else { fail("the wait's state lacks the tokens", input) }
    } catch {
        // Only the deadline may end it: an interval longer than the whole lifetime leaves no second poll.
        guard error.kind == .expired else { fail("the wait failed: \(error.message)", input) }
    }
    guard slept.load(ordering: .relaxed) <= schedule.expiresAt - now else {
        fail("slept \(slept.load(ordering: .relaxed)) s past the deadline", input)
    }
    if (try? device.wait()) != nil { fail("a device authorization signed in twice", input) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDevice(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
