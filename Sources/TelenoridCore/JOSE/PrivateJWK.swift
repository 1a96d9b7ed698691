import COpenSSL

/// Private keys written as JWKs (RFC 7517 §4, RFC 7518 §6.2.2 and §6.3.2, RFC 8037 §2): the form a
/// provider's registration page or `jwk` tooling hands a client for `private_key_jwt`.
extension PrivateKey {
    /// The private members (RFC 7518 §6.2.2.1 and §6.3.2, RFC 8037 §2), which the parser reads straight
    /// into wiping storage: as Strings in a JSONObject they would stay in freed memory.
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi"]

    /// A JWK's JSON text parsed for `init(jwk:secrets:)`, its private members left out of the object.
    static func parseJWK(_ text: [UInt8], limits: JSONLimits = JSONLimits(maxDepth: 4)) throws(TelenoridError) -> (
        JSONObject, [String: SecretBytes]
    ) {
        let parsed: (JSONValue, [String: SecretBytes])
        do { parsed = try JSON.parse(text, secretMembers: privateMembers, limits: limits) } catch {
            throw TelenoridError(.configuration, "client_private_key is not a valid JWK: \(error.message)")
        }
        guard let object = parsed.0.objectValue else {
            throw TelenoridError(.configuration, "client_private_key is not a JWK object")
        }
        return (object, parsed.1)
    }

    /// A key from a JWK whose string members named in `privateMembers` may be in `secrets` instead (as
    /// `parseJWK` leaves them) rather than in `object`.
    init(jwk object: JSONObject, secrets: [String: SecretBytes] = [:]) throws(TelenoridError) {
        func string(_ name: String) throws(TelenoridError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.configuration, "client_private_key member \(name) is not a string")
            }
            return text
        }
        func has(_ name: String) -> Bool { object[name] != nil || secrets[name] != nil }
        // Every number is returned as wiped-on-release storage: most of them are the secret key.
        func bytes(_ name: String) throws(TelenoridError) -> SecretBytes {
            let decoded: [UInt8]?
            if let secret = secrets[name] {
                decoded = secret.withUnsafeBytes { Base64URL.decode($0) }
            } else {
                decoded = try string(name).flatMap { Base64URL.decode($0) }
            }
            guard let decoded, !decoded.isEmpty else {
                throw TelenoridError(.configuration, "client_private_key member \(name) is missing or not base64url")
            }
            return SecretBytes(decoded)
        }
        let declared = try string("alg")
        keyID = try string("kid")
        if let use = try string("use"), use != "sig" {
            throw TelenoridError(.configuration, "client_private_key is not a signing key (use \(use))")
        }
        switch try string("kty") {
        case "RSA":
            // RFC 7518 §6.3.2: the CRT members come all together or not at all; "oth" (multi-prime) is not supported.
            guard object["oth"] == nil else {
                throw TelenoridError(.configuration, "multi-prime RSA keys are not supported")
            }
            var members = [("n", "n"), ("e", "e"), ("d", "d")]
            if has("p") || has("q") || has("dp") || has("dq") || has("qi") {
                members += [
                    ("p", "rsa-factor1"), ("q", "rsa-factor2"), ("dp", "rsa-exponent1"), ("dq", "rsa-exponent2"),
                    ("qi", "rsa-coefficient1")
                ]
            }
            var numbers: [(String, SecretBytes)] = []
            for (member, parameter) in members { numbers.append((parameter, try bytes(member))) }
            key = try PrivateKey.assemble("RSA", numbers: numbers)
            guard EVP_PKEY_get_bits(key.pointer) >= 2048 else {
                throw TelenoridError(.configuration, "client_private_key: RSA keys under 2048 bits are refused")
            }
            if let declared, !PrivateKey.rsaAlgorithms.contains(declared) {
                throw TelenoridError(.configuration, "client_private_key: an RSA key can't sign \(declared)")
            }
            algorithm = declared ?? "RS256"
            algorithmIsDefault = declared == nil
        case "EC":
            guard let curve = try string("crv"), let size = JWK.coordinateSize[curve], let group = JWK.curveNames[curve]
            else {
                throw TelenoridError(
                    .configuration, "client_private_key: EC curve \((try? string("crv")) ?? "none") is not supported")
            }
            let x = try bytes("x"), y = try bytes("y"), d = try bytes("d")
            guard x.count == size, y.count == size, d.count == size else {
                throw TelenoridError(
                    .configuration, "client_private_key: EC members are not \(size) bytes for \(curve)")
            }
            let point = SecretBytes([0x04] + x.bytes + y.bytes)
            key = try PrivateKey.assemble("EC", numbers: [("priv", d)], point: point, group: group)
            let expected = ["P-256": "ES256", "P-384": "ES384", "P-521": "ES512"][curve] ?? ""
            if let declared, declared != expected {
                throw TelenoridError(
                    .configuration, "client_private_key: a \(curve) key signs \(expected), not \(declared)")
            }
            algorithm = expected
            algorithmIsDefault = false
        case "OKP":
            guard try string("crv") == "Ed25519" else {
                throw TelenoridError(.configuration, "client_private_key: only the Ed25519 OKP curve is supported")
            }
            let d = try bytes("d"), x = try bytes("x")
            guard d.count == 32, x.count == 32,
                let pkey = d.bytes.withUnsafeBufferPointer({
                    EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32)
                })
            else {
                throw TelenoridError(.configuration, "client_private_key: Ed25519 members are not 32 valid bytes")
            }
            key = PKey(pkey)
            // The public half is derived from d; a JWK whose x disagrees is two keys glued together.
            var derived = [UInt8](repeating: 0, count: 32)
            var length = 32
            guard EVP_PKEY_get_raw_public_key(pkey, &derived, &length) == 1, length == 32, derived == x.bytes else {
                throw TelenoridError(.configuration, "client_private_key: Ed25519 x is not the public key of d")
            }
            if let declared, declared != "EdDSA" {
                throw TelenoridError(.configuration, "client_private_key: an Ed25519 key signs EdDSA, not \(declared)")
            }
            algorithm = "EdDSA"
            algorithmIsDefault = false
        case let other:
            throw TelenoridError(
                .configuration, "client_private_key: key type \(other ?? "none") can't sign client assertions")
        }
    }

    /// An RSA or EC key pair from its numbers, checked to be consistent (public half matches private).
    private static func assemble(
        _ type: String, numbers: [(String, SecretBytes)], point: SecretBytes? = nil,
        group: StaticString? = nil
    ) throws(TelenoridError) -> PKey {
        var bignums: [(StaticString, OpaquePointer)] = []
        defer { for (_, bn) in bignums { BN_clear_free(bn) } }
        for (name, value) in numbers {
            // Parameter names must outlive the builder (see JWK.stable), so they are mapped to literals.
            guard let literal = parameterNames[name],
                let bn = value.bytes.withUnsafeBufferPointer({
                    BN_bin2bn($0.baseAddress, Int32(truncatingIfNeeded: $0.count), nil)
                })
            else {
                throw TelenoridError(.configuration, "client_private_key: \(type) numbers are not valid")
            }
            bignums.append((literal, bn))
        }
        let selection = Int32(
            OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
        let pointBytes = point?.bytes ?? []
        let built: Result<PKey, TelenoridError> = pointBytes.withUnsafeBufferPointer { pointBuffer in
            do throws(TelenoridError) {
                return .success(
                    try JWK.fromData(type, selection: selection) { builder in
                        if let group {
                            guard
                                OSSL_PARAM_BLD_push_utf8_string(builder, JWK.stable("group"), JWK.stable(group), 0)
                                    == 1,
                                OSSL_PARAM_BLD_push_octet_string(
                                    builder, JWK.stable("pub"), pointBuffer.baseAddress, pointBuffer.count) == 1
                            else { return false }
                        }
                        for (name, bn) in bignums where OSSL_PARAM_BLD_push_BN(builder, JWK.stable(name), bn) != 1 {
                            return false
                        }
                        return true
                    })
            } catch {
                return .failure(error)
            }
        }
        let key: PKey
        switch built {
        case .success(let made): key = made
        case .failure: throw TelenoridError(.configuration, "client_private_key is not a valid \(type) private key")
        }
        // fromdata takes the numbers as given; a pairwise check refuses a d that does not belong to n/e
        // or to the EC point, which would only show up later as the provider refusing every assertion.
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw TelenoridError(.configuration, "out of memory")
        }
        defer { EVP_PKEY_CTX_free(context) }
        // (An RSA key given without its primes has nothing to check d against: it is taken as given.)
        let checkable = !(type == "RSA" && numbers.count == 3)
        guard !checkable || EVP_PKEY_pairwise_check(context) == 1 else {
            throw TelenoridError(
                .configuration, "client_private_key: the private and public \(type) numbers do not belong together")
        }
        return key
    }

    private static let parameterNames: [String: StaticString] = [
        "n": "n", "e": "e", "d": "d", "priv": "priv",
        "rsa-factor1": "rsa-factor1", "rsa-factor2": "rsa-factor2", "rsa-exponent1": "rsa-exponent1",
        "rsa-exponent2": "rsa-exponent2", "rsa-coefficient1": "rsa-coefficient1"
    ]
}

/// The way back, for keys the library generates itself (DPoP key pairs, RFC 9449): the public half as a
/// JWK for proof headers, and the whole key as a private JWK the host can store and hand back.
extension PrivateKey {
    /// The public half with only the members RFC 7638 §3.2 requires, in lexicographic order, so that its
    /// compact serialization is the thumbprint input as it stands: EC crv/kty/x/y (RFC 7518 §6.2.1), RSA
    /// e/kty/n (§6.3.1), Ed25519 crv/kty/x (RFC 8037 §2).
    func publicJWK() throws(TelenoridError) -> JSONObject {
        var jwk = JSONObject()
        for (name, member) in try jwkMembers(includingPrivate: false).sorted(by: { $0.name < $1.name }) {
            switch member {
            case .text(let text): jwk.set(name, .string(text))
            case .bytes(let bytes): jwk.set(name, .string(Base64URL.encode(bytes.bytes)))
            }
        }
        return jwk
    }

    /// The key as a private JWK, in the form `init(jwk:)` reads (RSA with its CRT members), serialized
    /// straight into wiping storage: a JSONObject would hold the private numbers as Strings nobody wipes.
    func privateJWK() throws(TelenoridError) -> SecretBytes {
        let members = try jwkMembers(includingPrivate: true)
        func length(_ member: JWKMember) -> Int {
            switch member {
            case .text(let text): text.utf8.count
            case .bytes(let bytes): (bytes.count * 4 + 2) / 3
            }
        }
        // `{`, then `"name":"value"` and a comma or the closing brace for each member.
        let total = 1 + members.reduce(0) { $0 + $1.name.utf8.count + length($1.member) + 6 }
        return SecretBytes(count: total) { out in
            var position = 0
            func put(_ text: String) {
                for byte in text.utf8 { out[position] = byte; position += 1 }
            }
            put("{")
            for (index, (name, member)) in members.enumerated() {
                put(index == 0 ? "\"\(name)\":\"" : ",\"\(name)\":\"")
                switch member {
                case .text(let text): put(text)
                case .bytes(let bytes):
                    position += PrivateKey.writeBase64URL(
                        bytes, into: UnsafeMutableBufferPointer(rebasing: out[position...]))
                }
                put("\"")
            }
            put("}")
        }
    }

    private enum JWKMember {
        case text(String)
        case bytes(SecretBytes)
    }

    private func jwkMembers(includingPrivate: Bool) throws(TelenoridError) -> [(name: String, member: JWKMember)] {
        switch EVP_PKEY_get_base_id(key.pointer) {
        case EVP_PKEY_EC:
            guard
                let (curve, size) = ["ES256": ("P-256", 32), "ES384": ("P-384", 48), "ES512": ("P-521", 66)][algorithm]
            else {
                throw TelenoridError(.unsupported, "an EC key for \(algorithm) can't be written as a JWK")
            }
            // RFC 7518 §6.2.1.2, §6.2.1.3 and §6.2.2.1: x, y and d are always the full coordinate size.
            var members: [(name: String, member: JWKMember)] = [
                ("kty", .text("EC")), ("crv", .text(curve)),
                ("x", .bytes(try number("qx", size: size))), ("y", .bytes(try number("qy", size: size)))
            ]
            if includingPrivate { members.append(("d", .bytes(try number("priv", size: size)))) }
            return members
        case EVP_PKEY_RSA:
            var members: [(name: String, member: JWKMember)] = [
                ("kty", .text("RSA")), ("n", .bytes(try number("n"))), ("e", .bytes(try number("e")))
            ]
            if includingPrivate {
                for (name, parameter) in [
                    ("d", "d"), ("p", "rsa-factor1"), ("q", "rsa-factor2"), ("dp", "rsa-exponent1"),
                    ("dq", "rsa-exponent2"), ("qi", "rsa-coefficient1")
                ] {
                    members.append((name, .bytes(try number(parameter))))
                }
            }
            return members
        case EVP_PKEY_ED25519:
            var members: [(name: String, member: JWKMember)] = [
                ("kty", .text("OKP")), ("crv", .text("Ed25519")), ("x", .bytes(try rawEd25519(private: false)))
            ]
            if includingPrivate { members.append(("d", .bytes(try rawEd25519(private: true)))) }
            return members
        default:
            throw TelenoridError(.unsupported, "this key type can't be written as a JWK")
        }
    }

    /// One of OpenSSL's numbers of the key, big-endian: `size` bytes when given (EC), else as few as hold
    /// it (RSA, RFC 7518 §6.3: no leading zero octets).
    private func number(_ parameter: String, size: Int? = nil) throws(TelenoridError) -> SecretBytes {
        var bignum: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(key.pointer, parameter, &bignum) == 1, let bignum else {
            throw TelenoridError(.unsupported, "key member \(parameter) could not be read")
        }
        defer { BN_clear_free(bignum) }
        let count = size ?? Int((BN_num_bits(bignum) + 7) / 8)
        var written: Int32 = -1
        let bytes = SecretBytes(count: count) { written = BN_bn2binpad(bignum, $0.baseAddress, Int32(count)) }
        guard written == Int32(count) else {
            throw TelenoridError(.unsupported, "key member \(parameter) does not fit \(count) bytes")
        }
        return bytes
    }

    private func rawEd25519(private isPrivate: Bool) throws(TelenoridError) -> SecretBytes {
        var length = 32
        var status: Int32 = 0
        let bytes = SecretBytes(count: 32) { out in
            status =
                isPrivate
                ? EVP_PKEY_get_raw_private_key(key.pointer, out.baseAddress, &length)
                : EVP_PKEY_get_raw_public_key(key.pointer, out.baseAddress, &length)
        }
        guard status == 1, length == 32 else { throw TelenoridError(.unsupported, "the Ed25519 key could not be read") }
        return bytes
    }

    /// Unpadded base64url (RFC 4648 §5) of a secret into `out`, returning the length written. The public
    /// encoder makes Strings, so this goes through the padded standard writer into wiped temporary memory
    /// and maps its alphabet.
    private static func writeBase64URL(_ secret: SecretBytes, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(Base64URL.standardLength(secret.count), 1)) {
            scratch in
            defer { Crypto.wipe(UnsafeMutableRawPointer(scratch.baseAddress), scratch.count) }
            var length = secret.withUnsafeBytes { Base64URL.encodeStandard($0, into: scratch) }
            while length > 0 && scratch[length - 1] == UInt8(ascii: "=") { length -= 1 }
            for index in 0..<length {
                switch scratch[index] {
                case UInt8(ascii: "+"): out[index] = UInt8(ascii: "-")
                case UInt8(ascii: "/"): out[index] = UInt8(ascii: "_")
                case let byte: out[index] = byte
                }
            }
            return length
        }
    }
}
