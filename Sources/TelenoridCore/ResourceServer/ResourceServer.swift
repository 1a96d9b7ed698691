/// The checks of a resource server (an API a client calls with an access token) against one provider:
/// asking the provider about a token (RFC 7662), or verifying a JWT access token locally with the
/// provider's keys (RFC 9068). It authenticates at the introspection endpoint as its client (`client`, the
/// resource server's own registration) does at the token endpoint, and shares the client's metadata and
/// key-set caches. Safe to share between threads.
public final class ResourceServer: Sendable {
    public let client: OIDCClient
    /// What a JWT access token's `aud` must contain (RFC 9068 §4): this resource server's identifier.
    public let audience: String

    public enum Option: Sendable {
        /// Seconds an introspection answer is reused for the same token; 0 (the default) asks every time.
        case introspectionCacheMaxAge
        /// The JWS algorithms a JWT access token may be signed with, space-separated.
        case accessTokenAlgorithms
        /// Accept a JWT access token whose `typ` is `JWT` (providers that predate RFC 9068).
        case acceptTypJWT
    }

    struct Options {
        var cacheMaxAge: Int64 = 0
        /// Asymmetric only (RFC 9068 §4 verifies with the provider's published keys; a MAC would need a
        /// secret the resource server shares with the provider): the client's defaults, as for ID tokens.
        var algorithms: Set<String> = ClientConfiguration.defaultAlgorithms
        var acceptTypJWT = false
    }
    let options = Locked(Options())
    let cache = IntrospectionCache()

    public init(client: OIDCClient, audience: String) throws(TelenoridError) {
        guard !audience.isEmpty else { throw TelenoridError(.invalidArgument, "audience is empty") }
        self.client = client
        self.audience = audience
    }

    /// The most seconds an introspection answer may be reused (a token revoked at the provider is still
    /// accepted for that long).
    public static let maxCacheAge: Int64 = 24 * 60 * 60

    public func set(_ option: Option, _ value: String?) throws(TelenoridError) {
        switch option {
        case .introspectionCacheMaxAge:
            let seconds: Int64
            if let value {
                guard let number = Int64(value), number >= 0, number <= ResourceServer.maxCacheAge else {
                    throw TelenoridError(
                        .invalidArgument,
                        "the introspection cache's max age is a whole number of seconds from 0 to \(ResourceServer.maxCacheAge)"
                    )
                }
                seconds = number
            } else {
                seconds = 0
            }
            options.withLock { $0.cacheMaxAge = seconds }
            if seconds == 0 { cache.clear() }
        case .accessTokenAlgorithms:
            let algorithms: Set<String>
            if let value {
                algorithms = Set(value.split(separator: " ").map { String($0) })
                guard !algorithms.isEmpty else { throw TelenoridError(.invalidArgument, "no algorithm named") }
                for algorithm in algorithms where !ClientConfiguration.defaultAlgorithms.contains(algorithm) {
                    throw TelenoridError(
                        .invalidArgument,
                        "\(DisplayText.escaping(algorithm)) is no asymmetric JWS algorithm this library verifies "
                            + "(\(ClientConfiguration.defaultAlgorithms.sorted().joined(separator: " ")))")
                }
            } else {
                algorithms = ClientConfiguration.defaultAlgorithms
            }
            options.withLock { $0.algorithms = algorithms }
        case .acceptTypJWT:
            let accept: Bool
            switch value {
            case nil, "false": accept = false
            case "true": accept = true
            default: throw TelenoridError(.invalidArgument, "accept typ JWT is \"true\" or \"false\"")
            }
            options.withLock { $0.acceptTypJWT = accept }
        }
    }
}
