import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// RFC 8628 §3.2's example response, with an interval of 5 seconds.
private let exampleResponse = #"""
    {"device_code":"GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS","user_code":"WDJB-MJHT",
    "verification_uri":"https://example.com/device",
    "verification_uri_complete":"https://example.com/device?user_code=WDJB-MJHT",
    "expires_in":1800,"interval":5}
    """#

private let tokens = #"{"access_token":"device-access","token_type":"Bearer","expires_in":3600,"refresh_token":"r1"}"#
private let pending = (status: 400, body: #"{"error":"authorization_pending"}"#)
private let slowDown = (status: 400, body: #"{"error":"slow_down"}"#)

final class DeviceAuthorizationTests: XCTestCase {
    private func parse(_ body: String, status: Int = 200) throws -> DeviceAuthorizationResponse {
        try DeviceAuthorizationResponse(MemoryProvider.json(status, body), now: 1_000_000)
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, _ context: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), context, file: file, line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\(context): \($0)", file: file, line: line)
        }
    }

    /// A provider with a device authorization endpoint in its metadata, answering RFC 8628's example.
    private func provider(_ response: String = exampleResponse) -> MemoryProvider {
        let provider = MemoryProvider()
        provider.advertise("device_authorization_endpoint", endpoint: .device)
        provider.answer(.device, status: 200, body: response)
        return provider
    }

    /// A client whose waits pass no real time: each sleep moves `time` instead and is recorded.
    private func client(
        _ provider: MemoryProvider, _ time: TestClock, slept: Locked<[Int64]>? = nil,
        _ extra: [ClientConfiguration.Setting: String] = [:]
    ) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tv-app"
        settings[.redirectURI] = "com.example.tv:/unused"
        settings[.scope] = "profile"
        for (setting, value) in extra { settings[setting] = value }
        let sleeps = CancellableSleeps { seconds in
            time.now.add(seconds, ordering: .relaxed)
            slept?.withLock { $0.append(seconds) }
        }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { time.now.load(ordering: .relaxed) }, sleeps: sleeps)
    }

    func testTheExampleResponseParses() throws {
        let response = try parse(exampleResponse)
        XCTAssertEqual(response.deviceCode.string, "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS")
        XCTAssertEqual(response.userCode, "WDJB-MJHT")
        XCTAssertEqual(response.verificationURI, "https://example.com/device")
        XCTAssertEqual(response.verificationURIComplete, "https://example.com/device?user_code=WDJB-MJHT")
        XCTAssertEqual(response.expiresIn, 1800)
        XCTAssertEqual(response.interval, 5)
        let minimal = try parse(
            #"{"device_code":"d","user_code":"U","verification_uri":"http://127.0.0.1:8000/device","expires_in":60}"#)
        XCTAssertNil(minimal.interval)
        XCTAssertNil(minimal.verificationURIComplete)
    }

    func testHostileResponsesAreRefused() throws {
        let fields: [(String, String)] = [
            ("device_code", #""d""#), ("user_code", #""U""#), ("verification_uri", #""https://x.example/d""#),
            ("expires_in", "600")
        ]
        func body(replacing name: String? = nil, with value: String? = nil, adding extra: String = "") -> String {
            let members = fields.compactMap { field -> String? in
                guard field.0 == name else { return "\"\(field.0)\":\(field.1)" }
                return value.map { "\"\(field.0)\":\($0)" }
            }
            return "{" + (members + (extra.isEmpty ? [] : [extra])).joined(separator: ",") + "}"
        }
        XCTAssertNoThrow(try parse(body()))
        for (name, _) in fields {
            assertKind(.invalidResponse, try parse(body(replacing: name, with: nil)), "without \(name)")
        }
        for value in ["-1", "1.5", #""5""#, "1e3", "86401", "99999999999999999999", "null", "true"] {
            assertKind(.invalidResponse, try parse(body(adding: #""interval":\#(value)"#)), "interval \(value)")
        }
        XCTAssertEqual(try parse(body(adding: #""interval":0"#)).interval, 0)
        for value in ["0", "-5", "2.5", "86401", #""600""#] {
            assertKind(.invalidResponse, try parse(body(replacing: "expires_in", with: value)), "expires_in \(value)")
        }
        for uri in ["http://id.example.com/device", "ftp://x.example/", "device", #""#, "https://u@x.example/"] {
            assertKind(.invalidResponse, try parse(body(replacing: "verification_uri", with: "\"\(uri)\"")), uri)
            assertKind(.invalidResponse, try parse(body(adding: #""verification_uri_complete":"\#(uri)""#)), uri)
        }
        assertKind(.invalidResponse, try parse(body(replacing: "user_code", with: #""AB\u0007CD""#)))
        assertKind(
            .invalidResponse, try parse(body(replacing: "user_code", with: "\"\(String(repeating: "A", count: 65))\"")))
        assertKind(.invalidResponse, try parse(body(replacing: "device_code", with: #""""#)))
        assertKind(.invalidResponse, try parse(body(replacing: "device_code", with: "42")))
        assertKind(.invalidResponse, try parse("not json"))
        assertKind(.invalidResponse, try parse("[]"))
        assertKind(.authorizationError, try parse(#"{"error":"invalid_scope"}"#, status: 400))
        assertKind(.clientRejected, try parse(#"{"error":"invalid_client"}"#, status: 401))
        assertKind(.temporarilyUnavailable, try parse("", status: 503))
    }

    func testTheClientDeadlineIsCappedAtAnHour() throws {
        let time = TestClock()
        let provider = provider(exampleResponse.replacingOccurrences(of: "1800", with: "86400"))
        let device = try client(provider, time).startDeviceAuthorization(nil)
        XCTAssertEqual(device.expiresAt, time.now.load(ordering: .relaxed) + TokenPolling.maximumLifetime)
    }

    func testStartSendsClientIDScopeAndResourcesToTheDiscoveredEndpoint() throws {
        let provider = provider()
        let client = try client(
            provider, TestClock(), [.clientSecret: "s3cret", .clientAuthMethod: "client_secret_basic"])
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.set(.scope, "openid offline_access")
        try request.set(.prompt, "login")
        try request.addResource("https://api.example.com/")
        let device = try client.startDeviceAuthorization(request)
        XCTAssertEqual(device.userCode, "WDJB-MJHT")
        XCTAssertEqual(device.verificationURI, "https://example.com/device")
        XCTAssertEqual(device.interval, 5)

        let sent = try XCTUnwrap(provider.requests(to: .device).last)
        XCTAssertEqual(sent.method, "POST")
        XCTAssertNotNil(sent.authorization, "client_secret_basic authenticates in the header")
        let form = try provider.lastForm(to: .device)
        XCTAssertEqual(form.pairs.map(\.name), ["client_id", "scope", "resource"])
        XCTAssertEqual(form["client_id"], "tv-app")
        XCTAssertEqual(form["scope"], "openid offline_access")
        XCTAssertEqual(form["resource"], "https://api.example.com/")

        // Without a request: the configuration's scope; a public client's client_id comes once.
        let publicClient = try self.client(provider, TestClock())
        _ = try publicClient.startDeviceAuthorization(nil)
        let publicForm = try provider.lastForm(to: .device)
        XCTAssertEqual(publicForm["scope"], "profile")
        XCTAssertEqual(publicForm.pairs.filter { $0.name == "client_id" }.count, 1)
    }

    func testAProviderWithoutTheEndpointIsUnsupportedAndTheConfiguredOneWins() throws {
        let provider = MemoryProvider()
        assertKind(.providerUnsupported, try client(provider, TestClock()).startDeviceAuthorization(nil))
        provider.answer(.device, status: 200, body: exampleResponse)
        let configured = try client(provider, TestClock(), [.deviceAuthorizationEndpoint: provider.url(.device)])
        XCTAssertEqual(try configured.startDeviceAuthorization(nil).userCode, "WDJB-MJHT")
    }

    func testPendingAndSlowDownAreWaitedOutAtTheGrowingInterval() throws {
        let provider = provider()
        provider.queue(.token, [pending, slowDown, pending])
        provider.answer(.token, status: 200, body: tokens)
        let time = TestClock()
        let slept = Locked<[Int64]>([])
        let device = try client(provider, time, slept: slept).startDeviceAuthorization(nil)
        let state = try device.wait()

        XCTAssertEqual(state.tokens?.accessToken.string, "device-access")
        XCTAssertEqual(slept.withLock { $0 }, [5, 5, 10, 10], "slow_down adds 5 s for every later poll")
        XCTAssertEqual(device.interval, 10)
        let polls = provider.requests(to: .token)
        XCTAssertEqual(polls.count, 4)
        let form = try provider.lastForm(to: .token)
        XCTAssertEqual(form["grant_type"], "urn:ietf:params:oauth:grant-type:device_code")
        XCTAssertEqual(form["device_code"], "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS")
        XCTAssertEqual(form["client_id"], "tv-app")
        assertKind(.consumed, try device.wait())
    }

    func testDenialIsTheProvidersErrorAndTheWaitMayStartAgain() throws {
        let provider = provider()
        provider.queue(.token, [pending, (400, #"{"error":"access_denied","error_description":"no"}"#)])
        provider.answer(.token, status: 200, body: tokens)
        let device = try client(provider, TestClock()).startDeviceAuthorization(nil)
        XCTAssertThrowsError(try device.wait()) { error in
            let error = error as? TelenoridError
            XCTAssertEqual(error?.kind, .authorizationError)
            XCTAssertEqual(error?.oauthError, "access_denied")
            XCTAssertEqual(error?.oauthErrorDescription, "no")
        }
        XCTAssertNotNil(try device.wait().tokens)
    }

    func testExpiredTokenAndTheClientsOwnDeadlineAreExpired() throws {
        let provider = provider()
        provider.queue(.token, [pending, (400, #"{"error":"expired_token"}"#)])
        assertKind(.expired, try client(provider, TestClock()).startDeviceAuthorization(nil).wait())

        // expires_in 10 at interval 5: polls at 5 s and 10 s, then the client gives up without asking again.
        let patient = self.provider(exampleResponse.replacingOccurrences(of: "1800", with: "10"))
        patient.answer(.token, status: pending.status, body: pending.body)
        let time = TestClock()
        let start = time.now.load(ordering: .relaxed)
        assertKind(.expired, try client(patient, time).startDeviceAuthorization(nil).wait())
        XCTAssertEqual(patient.requests(to: .token).count, 2)
        XCTAssertEqual(time.now.load(ordering: .relaxed) - start, 10)
    }

    func testATimeoutDoublesTheInterval() throws {
        let provider = provider()
        provider.answer(.token, status: 200, body: tokens)
        provider.failure.withLock { $0 = TelenoridError(.timeout, "timed out") }
        let slept = Locked<[Int64]>([])
        let time = TestClock()
        let sleeps = CancellableSleeps { seconds in
            time.now.add(seconds, ordering: .relaxed)
            let count = slept.withLock { list in
                list.append(seconds)
                return list.count
            }
            if count == 2 { provider.failure.withLock { $0 = nil } }
        }
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tv-app"
        settings[.redirectURI] = "com.example.tv:/unused"
        let client = try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { time.now.load(ordering: .relaxed) }, sleeps: sleeps)
        provider.failure.withLock { $0 = nil }
        let device = try client.startDeviceAuthorization(nil)
        provider.failure.withLock { $0 = TelenoridError(.timeout, "timed out") }
        XCTAssertNotNil(try device.wait().tokens)
        XCTAssertEqual(slept.withLock { $0 }, [5, 10], "RFC 8628 §3.5: a timeout lowers the polling frequency")
    }

    func testCancelEndsTheWaitWithin100Milliseconds() throws {
        let provider = provider()
        provider.answer(.token, status: pending.status, body: pending.body)
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tv-app"
        settings[.redirectURI] = "com.example.tv:/unused"
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
        let device = try client.startDeviceAuthorization(nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { client.cancel() }
        let started = Date()
        assertKind(.cancelled, try device.wait())
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(elapsed, 0.15, "a 5 s sleep ended by cancel")
        XCTAssertTrue(provider.requests(to: .token).isEmpty, "nothing was polled")
    }

    func testAWakerEndsOneSleepEarly() throws {
        let provider = provider()
        provider.answer(.token, status: 200, body: tokens)
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tv-app"
        settings[.redirectURI] = "com.example.tv:/unused"
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
        var schedule = TokenPolling.Schedule(interval: 5, expiresIn: 60, now: client.clock())
        let waker = SleepWaker(for: client)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { waker.wake() }
        let started = Date()
        let result = try TokenPolling.wait(on: client, schedule: &schedule, waker: waker, during: "test") {
            () throws(TelenoridError) in 42
        }
        XCTAssertEqual(result, 42)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }
}
