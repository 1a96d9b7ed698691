/// An authorization URL with holes for `state`, `nonce` and `code_challenge`, everything else in it
/// percent-encoded once, when the request changes, rather than on every build: the redirect URI, the
/// claims JSON (OIDC Core §5.5) and the host's parameters are the same for every sign-in made from one
/// request, and encoding them was most of the work of a build.
struct AuthorizationURLTemplate: Sendable {
    /// The endpoint, its separator and every parameter before `state`, through `&state=`.
    private let head: [UInt8]
    /// `&code_challenge_method=…` and every parameter after it.
    private let tail: [UInt8]

    /// `leading` goes before `state`, `trailing` after `code_challenge`, in the order of
    /// `AuthorizationRequest.parameters`.
    init(endpoint: String, leading: FormParameters, trailing: FormParameters) {
        let separator = endpoint.containsByte(UInt8(ascii: "?")) ? "&" : "?"
        head = Array(leading.encoded(after: endpoint + separator).utf8) + Array("&state=".utf8)
        tail = Array(trailing.encoded(after: "&").utf8)
    }

    /// The URL with these values filled in, written once into a string of its exact length.
    func url(state: String, nonce: String, challenge: String) -> String {
        let nonceName: StaticString = "&nonce=", challengeName: StaticString = "&code_challenge="
        // Each value's length encoded; the same as its own length when it needs no escape, as the library's
        // own draws never do (base64url, and a PKCE verifier's unreserved characters: RFC 7636 §4.1), so
        // then it is copied whole rather than escaped byte by byte.
        let stateCount = Self.encodedCount(state), nonceCount = Self.encodedCount(nonce)
        let challengeCount = Self.encodedCount(challenge)
        let count =
            head.count + stateCount + nonceName.utf8CodeUnitCount + nonceCount
            + challengeName.utf8CodeUnitCount + challengeCount + tail.count
        return String(unsafeUninitializedCapacity: count) { out in
            var position = 0
            head.withUnsafeBufferPointer { PercentEncoding.copy($0, to: out, at: &position) }
            Self.write(state, encodedCount: stateCount, to: out, at: &position)
            PercentEncoding.copy(nonceName.bytes, to: out, at: &position)
            Self.write(nonce, encodedCount: nonceCount, to: out, at: &position)
            PercentEncoding.copy(challengeName.bytes, to: out, at: &position)
            Self.write(challenge, encodedCount: challengeCount, to: out, at: &position)
            tail.withUnsafeBufferPointer { PercentEncoding.copy($0, to: out, at: &position) }
            return position
        }
    }

    // Not inlined: three copies of the encoder in `url` cost more library size than the calls cost time.
    @inline(never)
    private static func encodedCount(_ value: String) -> Int {
        var value = value  // withUTF8 needs it mutable; no copy of the bytes
        return value.withUTF8(PercentEncoding.encodedCount)
    }

    /// `value` percent-encoded at `position`; `encodedCount` is what `encodedCount(value)` gave.
    @inline(never)
    private static func write(
        _ value: String, encodedCount: Int, to out: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
    ) {
        var value = value
        value.withUTF8 { bytes in
            if encodedCount == bytes.count {
                PercentEncoding.copy(bytes, to: out, at: &position)
            } else {
                PercentEncoding.write(bytes, to: out, at: &position)
            }
        }
    }
}

private extension StaticString {
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
