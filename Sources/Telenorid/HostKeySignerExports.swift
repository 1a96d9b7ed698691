import CTelenorid
import TelenoridCore

// Keys the host holds (Android Keystore, Secure Enclave, an HSM), reached through a telenorid_host_key_signer:
// the DPoP key (DPoPExports.swift) and the client's own key (here).

struct CHostKeySigner: @unchecked Sendable {
    // The host promised, by registering it, that the callback may run on any thread with this pointer.
    let function: telenorid_host_key_signer
    let userData: UnsafeMutableRawPointer?

    /// Room for any signature the JWS algorithms make: RSA up to 8192 bits is 1024 bytes.
    static let capacity = 1024

    func sign(_ input: [UInt8]) throws(TelenoridError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: CHostKeySigner.capacity)
        var length = CHostKeySigner.capacity
        let result = input.withUnsafeBufferPointer { inputBytes in
            signature.withUnsafeMutableBufferPointer { out in
                HostCallbackDepth.around {
                    function(userData, inputBytes.baseAddress, inputBytes.count, out.baseAddress, &length)
                }
            }
        }
        guard result == 0 else { throw TelenoridError(.invalidArgument, "the host's signer failed (\(result))") }
        // size_t arrives as Int: a length of 2^63 or more reads as negative, and is as wrong as one too large.
        let written = UInt(bitPattern: length)
        guard written <= UInt(CHostKeySigner.capacity) else {
            throw TelenoridError(
                .invalidArgument,
                """
                the host's signer set a signature length of \(written), \
                more than the \(CHostKeySigner.capacity) bytes it was given
                """
            )
        }
        return Array(signature[0..<length])
    }
}

extension CHostKeySigner {
    /// The core's signer for a callback, its algorithm and public JWK (C strings, checked here); nil for a
    /// NULL callback, which removes the signer (the other arguments are then ignored).
    static func keySigner(
        _ algorithm: UnsafePointer<CChar>?, _ publicJWK: UnsafePointer<CChar>?,
        _ callback: telenorid_host_key_signer?, _ userData: UnsafeMutableRawPointer?
    ) throws(TelenoridError) -> HostKeySigner? {
        guard let callback else { return nil }
        let algorithm = try inputString(algorithm, "algorithm")
        let jwkText = try inputString(publicJWK, "public_jwk")
        guard let jwk = (try? JSON.parse(jwkText))?.objectValue else {
            throw TelenoridError(.invalidArgument, "public_jwk is not a JSON object")
        }
        let host = CHostKeySigner(function: callback, userData: userData)
        return try HostKeySigner(algorithm: algorithm, publicJWK: jwk) { input throws(TelenoridError) in
            try host.sign(input)
        }
    }
}

@c @implementation
public func telenorid_client_set_client_signer(
    _ client: OpaquePointer?, _ algorithm: UnsafePointer<CChar>?,
    _ publicJWK: UnsafePointer<CChar>?, _ callback: telenorid_host_key_signer?,
    _ userData: UnsafeMutableRawPointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        try client.setClientSigner(try CHostKeySigner.keySigner(algorithm, publicJWK, callback, userData))
    }
}
