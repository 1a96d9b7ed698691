// libFuzzer target: configuration documents and serialized pending authorizations, both of which a
// host reads back from storage it may not fully trust.
nonisolated(unsafe) private var configuration: ClientConfiguration? = nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    if configuration == nil {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "client"
        settings[.redirectURI] = "app://cb"
        settings[.authorizationEndpoint] = "https://id.example.com/authorize"
        configuration = try? ClientConfiguration(settings)
    }
    _ = try? ClientConfiguration(json: text, environment: nil)
    _ = try? ClientConfiguration(json: text, environment: "staging")
    if let configuration { _ = try? PendingAuthorization(restoring: text, configuration: configuration) }
    return 0
}
