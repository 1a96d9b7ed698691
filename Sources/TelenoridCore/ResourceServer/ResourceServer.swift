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
        /// The JWS algorithms a DPoP proof may be signed with, space-separated (RFC 9449 §4.3 check 5).
        case dpopAlgorithms
        /// Require the server's nonce in every DPoP proof (RFC 9449 §9): "true" or "false".
        case dpopRequireNonce
    }

    struct Options {
        var cacheMaxAge: Int64 = 0
        /// Asymmetric only (RFC 9068 §4 verifies with the provider's published keys; a MAC would need a
        /// secret the resource server shares with the provider): the client's defaults, as for ID tokens.
        var algorithms: Set<String> = ClientConfiguration.defaultAlgorithms
        var acceptTypJWT = false
        /// Asymmetric only (RFC 9449 §4.3 check 5): every one this library verifies.
        var dpopAlgorithms: Set<String> = ClientConfiguration.defaultAlgorithms
        var dpopRequireNonce = false
    }
    let options = Locked(Options())
    let cache = IntrospectionCache()
    /// The DPoP proofs seen and the nonce key (`DPoPReplayCache`): this server's own until the host shares
    /// one (`useDPoPReplayCache`).
    let dpopCache: Locked<DPoPReplayCache>

    public init(client: OIDCClient, audience: String) throws(TelenoridError) {
        guard !audience.isEmpty else { throw TelenoridError(.invalidArgument, "audience is empty") }
        self.client = client
        self.audience = audience
        dpopCache = Locked(try DPoPReplayCache())
    }

    /// Checks DPoP proofs with `cache` from now on, shared with the other resource servers that use it.
    public func useDPoPReplayCache(_ cache: DPoPReplayCache) { dpopCache.withLock { $0 = cache } }

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
            let algorithms = try ResourceServer.algorithmList(value)
            options.withLock { $0.algorithms = algorithms }
        case .dpopAlgorithms:
            let algorithms = try ResourceServer.algorithmList(value)
            options.withLock { $0.dpopAlgorithms = algorithms }
        case .acceptTypJWT:
            let accept = try ResourceServer.flag(value, "accept typ JWT")
            options.withLock { $0.acceptTypJWT = accept }
        case .dpopRequireNonce:
            let require = try ResourceServer.flag(value, "require DPoP nonce")
            options.withLock { $0.dpopRequireNonce = require }
        }
    }

    /// A space-separated allow-list of asymmetric JWS algorithms; nil: all of them.
    private static func algorithmList(_ value: String?) throws(TelenoridError) -> Set<String> {
        guard let value else { return ClientConfiguration.defaultAlgorithms }
        let algorithms = Set(value.split(separator: " ").map { String($0) })
        guard !algorithms.isEmpty else { throw TelenoridError(.invalidArgument, "no algorithm named") }
        for algorithm in algorithms where !ClientConfiguration.defaultAlgorithms.contains(algorithm) {
            throw TelenoridError(
                .invalidArgument,
                "\(DisplayText.escaping(algorithm)) is no asymmetric JWS algorithm this library verifies "
                    + "(\(ClientConfiguration.defaultAlgorithms.sorted().joined(separator: " ")))")
        }
        return algorithms
    }

    /// "true" or "false"; nil: false.
    private static func flag(_ value: String?, _ what: String) throws(TelenoridError) -> Bool {
        switch value {
        case nil, "false": return false
        case "true": return true
        default: throw TelenoridError(.invalidArgument, "\(what) is \"true\" or \"false\"")
        }
    }
}
