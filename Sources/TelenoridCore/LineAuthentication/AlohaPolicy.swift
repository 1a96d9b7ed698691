/// Which URLs the Aloha exchange may touch. Line authentication works only because the operator's
/// network enriches one plain-HTTP request with the subscriber's line; that one hop is the only place
/// the library ever sends plain http to a non-loopback host, so its URLs are pinned to the configured
/// Aloha host:
/// - the prepare call and the redirect target are https on exactly the configured host and port;
/// - the inject request is http (or https) on the configured host, any port;
/// - nothing carries user info or a fragment.
public struct AlohaPolicy: Sendable, Equatable {
    public let base: URI
    /// The configured URL without a trailing slash, so paths append cleanly.
    let baseText: String

    public init(alohaURL text: String) throws(TelenoridError) {
        let uri: URI
        do { uri = try URI(parsing: text) } catch {
            throw TelenoridError(.configuration, "aloha_url is not a valid URL: \(error.message)")
        }
        guard uri.scheme == "https" else {
            throw TelenoridError(
                .insecure, "aloha_url must be https: the prepare call and the session answer travel over TLS")
        }
        guard let host = uri.host, !host.isEmpty, uri.userInfo == nil, uri.query == nil, uri.fragment == nil else {
            throw TelenoridError(
                .configuration, "aloha_url must be https://host[:port][/path] without user info, query or fragment")
        }
        base = uri
        var trimmed = Substring(text)
        while trimmed.utf8.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        baseText = String(trimmed)
    }

    /// `/hr/v1/prepare/<log uuid>` under the configured URL.
    public func prepareURL(logID: String) -> String { baseText + "/hr/v1/prepare/" + logID }

    /// The inject request's URL: an absolute http(s) URL on the Aloha host, or a path on it over http.
    public func injectURL(_ injectPath: String) throws(TelenoridError) -> String {
        if injectPath.utf8.first == UInt8(ascii: "/") {
            // A path alone, but not "//host/..." which would name another host.
            guard injectPath.utf8.dropFirst().first != UInt8(ascii: "/"), let host = base.host else {
                throw TelenoridError(.insecure, "Aloha injectPath names another host")
            }
            let text = "http://" + (host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host) + injectPath
            try checkNoFragment(text, "injectPath")
            return text
        }
        let uri: URI
        do { uri = try URI(parsing: injectPath) } catch {
            throw TelenoridError(.invalidResponse, "Aloha injectPath is not a path or URL: \(error.message)")
        }
        guard uri.scheme == "http" || uri.scheme == "https" else {
            throw TelenoridError(.insecure, "Aloha injectPath must be http or https, not \(uri.scheme)")
        }
        guard uri.host == base.host, uri.userInfo == nil, uri.fragment == nil else {
            throw TelenoridError(.insecure, "Aloha injectPath must stay on the configured Aloha host")
        }
        return injectPath
    }

    /// The one redirect the inject request may answer with: https on the configured host and port.
    public func redirectURL(_ location: String) throws(TelenoridError) -> String {
        let uri: URI
        do { uri = try URI(parsing: location) } catch {
            throw TelenoridError(.invalidResponse, "Aloha redirect Location is not an absolute URL: \(error.message)")
        }
        guard uri.scheme == "https" else {
            throw TelenoridError(.insecure, "Aloha redirected to \(uri.scheme), not https")
        }
        guard uri.host == base.host, (uri.port ?? 443) == (base.port ?? 443), uri.userInfo == nil else {
            throw TelenoridError(.insecure, "Aloha redirected away from the configured Aloha host")
        }
        return location
    }

    private func checkNoFragment(_ text: String, _ what: String) throws(TelenoridError) {
        let uri: URI
        do { uri = try URI(parsing: text) } catch {
            throw TelenoridError(.invalidResponse, "Aloha \(what) is not a valid path: \(error.message)")
        }
        guard uri.fragment == nil, uri.userInfo == nil else {
            throw TelenoridError(.invalidResponse, "Aloha \(what) has a fragment or user info")
        }
    }

    /// A random (version 4) UUID for the prepare call's log id, from the kernel CSPRNG (RFC 9562 §5.4).
    public static func logID() throws(TelenoridError) -> String {
        var bytes = try Crypto.randomBytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(ASCII.hexDigit(byte >> 4))
            out.append(ASCII.hexDigit(byte & 0x0F))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
