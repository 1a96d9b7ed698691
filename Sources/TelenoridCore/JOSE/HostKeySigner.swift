/// A key the host keeps where the library can't read it (Android Keystore, the Secure Enclave, an HSM),
/// reached through a signing function: its algorithm, its public JWK, and the function. It signs DPoP
/// proofs (RFC 9449) and, as the client's key, client assertions (RFC 7523) and request objects (RFC 9101).
///
/// One object is shared by everything that signs with the key: the client that holds it and every auth
/// state and pending authorization bound to it. When the client lets it go (`retire`), the host's function
/// is taken from all of them at once, after the calls in flight have returned, so the host may then free
/// whatever the function uses.
public final class HostKeySigner: Sendable {
    /// Signs a JWS signing input (ASCII `header.payload`) and returns the signature as JWS carries it
    /// (RFC 7518 §3): raw r||s for ECDSA, not the DER a keystore gives; the plain signature for RSA and EdDSA.
    public typealias Sign = @Sendable (_ signingInput: [UInt8]) throws(TelenoridError) -> [UInt8]

    public let algorithm: String
    /// The key's RFC 7638 required members only, whatever else the host's JWK had (kid, use, alg).
    public let publicJWK: JSONObject
    public let thumbprint: String
    /// The host's JWK's `kid`, for the header of JWSs the provider verifies with a registered key set
    /// (RFC 7515 §4.1.4); a DPoP proof carries the key itself and has no use for it.
    public let keyID: String?
    private let slot: SignerSlot

    /// Checked now rather than at the first signature: the JWK must be a public key (RFC 9449 §4.2: never
    /// a private one) able to verify `algorithm`, which must be asymmetric (§4.2 rules out `none` and MACs;
    /// RFC 7523 §3 needs a signature the provider checks with a key it holds).
    public init(algorithm: String, publicJWK: JSONObject, sign: @escaping Sign) throws(TelenoridError) {
        guard JWS.asymmetric[algorithm] != nil else {
            throw TelenoridError(
                .invalidArgument, "a host-held key needs an asymmetric JWS algorithm, not \(algorithm)")
        }
        let key: JWK
        do { key = try JWK(publicJWK) } catch {
            throw TelenoridError(.invalidArgument, "the signer's public JWK is not usable: \(error.message)")
        }
        guard key.canVerify(algorithm: algorithm) else {
            throw TelenoridError(.invalidArgument, "the signer's public JWK can't verify \(algorithm)")
        }
        self.algorithm = algorithm
        self.publicJWK = try JWKThumbprint.requiredMembers(of: publicJWK)
        thumbprint = try JWKThumbprint.sha256(of: self.publicJWK)
        keyID = publicJWK["kid"]?.stringValue
        slot = SignerSlot(sign)
    }

    /// Takes the host's function away from every holder of this signer, once the calls in flight have
    /// returned: later calls go to `replacement` when it is the same key for the same algorithm and key ID
    /// (the host set its key again, with a new function), else fail with `.configuration`, saying the
    /// `role` ("DPoP signer") was removed or replaced. Never call it from inside the function: it would wait
    /// for itself.
    func retire(replacedBy replacement: HostKeySigner?, role: String) {
        guard let replacement else { return slot.detach(.detached("the \(role) was removed")) }
        // Only to a slot still attached: one retired already could lead back here, and calls would go round.
        if replacement.algorithm == algorithm, replacement.thumbprint == thumbprint, replacement.keyID == keyID,
            replacement.slot.isAttached
        {
            slot.detach(.handedOn(replacement.slot))
        } else {
            slot.detach(.detached("the \(role) was replaced by one for another key"))
        }
    }

    func signature(over input: [UInt8]) throws(TelenoridError) -> [UInt8] {
        let signature = try slot.sign(input)
        // A DER ECDSA signature (what keystores return) would be refused by every server; caught here,
        // where the host can still see why.
        if let size = JWS.asymmetric[algorithm]?.ecSize, signature.count != 2 * size {
            throw TelenoridError(
                .invalidArgument,
                "an \(algorithm) signature is \(2 * size) bytes of r||s, the signer gave \(signature.count)")
        }
        return signature
    }
}

/// Where a `HostKeySigner`'s holders reach the host's function. Detaching counts the calls in flight down
/// to none before it returns, which is what lets the host free the function's data right after: a
/// condition variable next to the mutex, which `Locked` has no use for.
private final class SignerSlot: @unchecked Sendable {
    enum State {
        case attached(HostKeySigner.Sign)
        /// The same key set again: its slot signs from now on.
        case handedOn(SignerSlot)
        case detached(String)
    }

    // Allocated, not stored inline: pthread objects must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let drained: UnsafeMutablePointer<pthread_cond_t>
    private var state: State  // guarded by mutex
    private var inFlight = 0  // calls of the attached function that have not returned; guarded by mutex

    init(_ sign: @escaping HostKeySigner.Sign) {
        state = .attached(sign)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        drained = .allocate(capacity: 1)
        drained.initialize(to: pthread_cond_t())
        pthread_cond_init(drained, nil)
    }

    deinit {
        pthread_cond_destroy(drained)
        drained.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    var isAttached: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if case .attached = state { return true }
        return false
    }

    func sign(_ input: [UInt8]) throws(TelenoridError) -> [UInt8] {
        pthread_mutex_lock(mutex)
        switch state {
        case .attached(let function):
            inFlight += 1
            pthread_mutex_unlock(mutex)
            defer {
                pthread_mutex_lock(mutex)
                inFlight -= 1
                if inFlight == 0 { pthread_cond_broadcast(drained) }
                pthread_mutex_unlock(mutex)
            }
            return try function(input)
        case .handedOn(let next):
            pthread_mutex_unlock(mutex)
            return try next.sign(input)
        case .detached(let reason):
            pthread_mutex_unlock(mutex)
            throw TelenoridError(.configuration, reason)
        }
    }

    /// Replaces the function for every later call, then waits until none of the calls already made is left.
    func detach(_ next: State) {
        pthread_mutex_lock(mutex)
        state = next
        while inFlight > 0 { pthread_cond_wait(drained, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
