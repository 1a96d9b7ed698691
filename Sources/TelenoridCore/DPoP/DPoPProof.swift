/// DPoP proof JWTs (RFC 9449 §4.2): one per HTTP request, sent in its `DPoP` header.
public enum DPoPProof {
    /// A signed proof for one request. `url` is the request's full URL (query and fragment are dropped,
    /// §4.2); `accessToken` is the token the request presents, if any (hashed into `ath`, §4.2 and §7);
    /// `nonce` is the server's latest `DPoP-Nonce` (§8, §9); `now` is the current Unix time for `iat`.
    public static func make(
        signer: DPoPSigner, method: String, url: String, accessToken: SecretBytes? = nil,
        nonce: String? = nil, now: Int64
    ) throws(TelenoridError) -> String {
        guard !method.isEmpty, method.utf8.allSatisfy(ASCII.isTokenByte) else {
            throw TelenoridError(
                .invalidArgument, "DPoP proof method \"\(DisplayText.escaping(method))\" is not an HTTP method")
        }
        if let nonce, !DPoPNonces.isNonce(nonce) {
            throw TelenoridError(.invalidArgument, "DPoP nonce has characters RFC 9449 §8.1 does not allow")
        }
        var header = JSONObject()
        header.set("typ", .string("dpop+jwt"))
        header.set("alg", .string(signer.algorithm))
        header.set("jwk", .object(signer.publicJWK))
        var claims = JSONObject()
        // §4.2 asks for at least 96 bits so the server's replay check (§11.1) never mistakes two proofs for
        // one; 128 random bits.
        claims.set("jti", .string(try Crypto.withRandomBytes(16) { Base64URL.encode($0) }))
        claims.set("htm", .string(method))
        claims.set("htu", .string(try targetURI(url)))
        claims.set("iat", .number(JSONNumber(now)))
        if let accessToken { claims.set("ath", .string(accessTokenHash(accessToken))) }
        if let nonce { claims.set("nonce", .string(nonce)) }
        let input = JWS.signingInput(header: header, payload: Array(JSON.serialize(.object(claims)).utf8))
        return input + "." + Base64URL.encode(try signer.signature(over: input))
    }

    /// `ath` (RFC 9449 §4.2): base64url of the SHA-256 of the access token's ASCII, binding the proof to
    /// the one token it travels with.
    static func accessTokenHash(_ token: SecretBytes) -> String {
        token.withUnsafeBytes { Crypto.sha256Base64URL($0) }
    }

    /// `htu` (RFC 9449 §4.2): the request URI without query and fragment. Servers compare it with the URI
    /// they were reached at after RFC 3986 §6.2.2 and §6.2.3 normalisation (§4.3 check 9); sending the
    /// normal form means a server that compares bytes agrees too. Lower-case scheme and host (§6.2.2.1),
    /// upper-case percent-escapes with unreserved ones decoded (§6.2.2.1, §6.2.2.2), no dot segments
    /// (§6.2.2.3), no default port and "/" for an empty path (§6.2.3).
    static func targetURI(_ url: String) throws(TelenoridError) -> String {
        let uri: URI
        do { uri = try URI(parsing: url) } catch {
            throw TelenoridError(.invalidArgument, "DPoP target is not a URL: \(error.message)")
        }
        guard uri.scheme == "https" || uri.scheme == "http", let host = uri.host, !host.isEmpty else {
            throw TelenoridError(.invalidArgument, "DPoP target is not an http(s) URL with a host")
        }
        // RFC 9110 §4.2.4: user info in an http(s) URI is deprecated, and curl would send it as Basic
        // credentials; a proof for such a URL is a mistake to report, not to normalise away.
        guard uri.userInfo == nil else { throw TelenoridError(.invalidArgument, "DPoP target URL has user info") }
        var target = uri.scheme + "://" + (host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host)
        if let port = uri.port, port != (uri.scheme == "https" ? 443 : 80) { target += ":\(port)" }
        return target + removingDotSegments(normalizingPercentEncoding(uri.path))
    }

    /// RFC 3986 §6.2.2.1 and §6.2.2.2 on a path whose escapes URI has already checked.
    private static func normalizingPercentEncoding(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let decoded = high << 4 | low
            if PercentEncoding.isUnreserved(decoded) {
                out.append(decoded)
            } else {
                out += [UInt8(ascii: "%"), ASCII.hexDigit(high, upper: true), ASCII.hexDigit(low, upper: true)]
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 on an absolute path (an authority's path is empty or starts with "/"), segment by
    /// segment: "." goes, ".." takes the segment before it, and a path ending in either ends in "/".
    private static func removingDotSegments(_ path: String) -> String {
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        var kept: [Substring.UTF8View.SubSequence] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) {
                if segment.count == 2, !kept.isEmpty { kept.removeLast() }
                if isLast { kept.append(segment[segment.endIndex...]) }
            } else {
                kept.append(segment)
            }
        }
        return "/" + kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    }
}
