/// The latest `DPoP-Nonce` each server gave (RFC 9449 §8 for authorization servers, §9 for resource
/// servers), kept per origin: a server may demand its nonce in every proof, and a nonce is only
/// meaningful to the server that issued it. Shared by all requests of a client, from any thread.
public struct DPoPNonces: Sendable {
    private let latest = Locked([String: String]())

    public init() {}

    /// The nonce to put in a proof for `url`, if its server has sent one.
    public func nonce(for url: String) -> String? {
        guard let origin = DPoPNonces.origin(of: url) else { return nil }
        return latest.withLock { $0[origin] }
    }

    /// Keeps `nonce` as the one to use for `url`'s server, replacing the one before: a server sends a new
    /// nonce when it wants it used (§8.2). A value that is not a valid nonce is ignored.
    public func remember(_ nonce: String, for url: String) {
        guard DPoPNonces.isNonce(nonce), let origin = DPoPNonces.origin(of: url) else { return }
        latest.withLock { $0[origin] = nonce }
    }

    /// The nonce in a `DPoP-Nonce` response header value, or nil when the value is not one (§8.1:
    /// `1*NQCHAR`). Whitespace around the value is field syntax (RFC 9110 §5.5), not part of it.
    public static func parseHeader(_ value: String) -> String? {
        var bytes = Substring(value).utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        let nonce = String(decoding: bytes, as: UTF8.self)
        return isNonce(nonce) ? nonce : nil
    }

    /// Whether a failed response asks for the request again with a (new) nonce: 400 with the OAuth error
    /// `use_dpop_nonce` from an authorization server (§8), or 401 with a DPoP challenge carrying that
    /// error from a resource server (§9). The `DPoP-Nonce` header of the same response holds the nonce.
    public static func asksForNonce(status: Int, oauthError: String?, wwwAuthenticate: String?) -> Bool {
        switch status {
        case 400:
            return oauthError == "use_dpop_nonce"
        case 401:
            guard let wwwAuthenticate else { return false }
            return AuthenticationChallenge.parse(wwwAuthenticate).contains {
                $0.scheme == "dpop" && $0.parameter("error") == "use_dpop_nonce"
            }
        default:
            return false
        }
    }

    /// §8.1: NQCHAR = %x21 / %x23-5B / %x5D-7E, at least one: printable ASCII without space, `"` and `\`.
    static func isNonce(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }
    }

    /// The origin (RFC 6454 §4) a nonce belongs to: scheme, host and port, the default port written out so
    /// that `https://as.example` and `https://as.example:443` share one.
    static func origin(of url: String) -> String? {
        guard let uri = try? URI(parsing: url), let host = uri.host, !host.isEmpty,
            uri.scheme == "https" || uri.scheme == "http"
        else { return nil }
        return "\(uri.scheme)://\(host):\(uri.port ?? (uri.scheme == "https" ? 443 : 80))"
    }
}
