/// The functions of a store the host implements (a keychain, a secret service, a database), which the
/// core calls without knowing how they are reached: each says whether it worked.
public struct HostStoreFunctions: Sendable {
    public enum Outcome: Sendable, Equatable {
        case done
        /// The lock was not had within the timeout.
        case timedOut
        /// Any other failure, with the host's code.
        case failed(Int32)
        /// `load` handed over a record that can't be one (twice, or too large).
        case garbage(String)
    }

    /// The record `key`, or nil when there is none.
    public var load: @Sendable (_ key: String) -> (Outcome, SecretBytes?)
    /// Replaces the record `key` atomically.
    public var store: @Sendable (_ key: String, _ data: SecretBytes) -> Outcome
    /// Takes the lock `name`, waiting at most the timeout, across every process sharing the store.
    public var lock: @Sendable (_ name: String, _ timeoutMilliseconds: Int32) -> Outcome
    public var unlock: @Sendable (_ name: String) -> Outcome

    public init(
        load: @escaping @Sendable (_ key: String) -> (Outcome, SecretBytes?),
        store: @escaping @Sendable (_ key: String, _ data: SecretBytes) -> Outcome,
        lock: @escaping @Sendable (_ name: String, _ timeoutMilliseconds: Int32) -> Outcome,
        unlock: @escaping @Sendable (_ name: String) -> Outcome
    ) {
        self.load = load
        self.store = store
        self.lock = lock
        self.unlock = unlock
    }
}

/// Where auth states are kept, each under a record key: the host's store, or a directory of state files
/// (`<directory>/<key>.json`, an `AuthStateFile`). The same key in the same store is the same sign-in,
/// shared by every thread and process that opens it.
public enum RecordStore: Sendable {
    case host(HostStoreFunctions)
    case directory(String)

    /// Record keys are ASCII letters, digits, '.', '_' and '-', as a file name, a keychain account or a
    /// database key takes them unescaped. A key ending in ".update" is refused: it would name another
    /// key's update lock.
    public static func checkKey(_ key: String) throws(TelenoridError) {
        let allowed = key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default: return false
            }
        }
        guard allowed, (1...128).contains(key.utf8.count), !key.hasSuffix(HostStore.updateSuffix) else {
            throw TelenoridError(
                .invalidArgument,
                "a store key is 1 to 128 of A-Z a-z 0-9 . _ - and does not end in \"\(HostStore.updateSuffix)\"")
        }
    }

    /// The auth state store of record `key`, whose locks wait at most `lockTimeoutMilliseconds`.
    public func authStateStore(key: String, lockTimeoutMilliseconds: Int) throws(TelenoridError)
        -> any AuthStateStore
    {
        try RecordStore.checkKey(key)
        switch self {
        case .host(let functions):
            return HostStore(functions: functions, key: key, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
        case .directory(let directory):
            let separator = directory.hasSuffix("/") ? "" : "/"
            return try AuthStateFile(
                path: directory + separator + key + ".json", lockTimeoutMilliseconds: lockTimeoutMilliseconds)
        }
    }
}

/// One record of the host's store as an `AuthStateStore`: the record `key`, the exclusive lock `key`
/// and the update lock `key.update`. Whatever the host's functions do, the core sees a thrown
/// `.storeFailed` naming the operation and the key, never the data.
public final class HostStore: AuthStateStore {
    static let updateSuffix = ".update"
    /// A state is a few kilobytes; anything far larger is not one.
    public static let maximumBytes = 1 << 20

    let functions: HostStoreFunctions
    public let key: String
    let lockTimeoutMilliseconds: Int32

    init(functions: HostStoreFunctions, key: String, lockTimeoutMilliseconds: Int) {
        self.functions = functions
        self.key = key
        self.lockTimeoutMilliseconds = Int32(clamping: max(lockTimeoutMilliseconds, 0))
    }

    public func withExclusiveAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError) {
        try holding(key, body)
    }

    public func withUpdateAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError) {
        try holding(key + HostStore.updateSuffix, body)
    }

    private func holding<T>(_ name: String, _ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
        try check(functions.lock(name, lockTimeoutMilliseconds), "lock of \"\(name)\"")
        let result: Result<T, TelenoridError>
        do throws(TelenoridError) { result = .success(try body()) } catch { result = .failure(error) }
        let unlocked = functions.unlock(name)
        // The body's own error says more than a failed unlock after it.
        let value = try result.get()
        try check(unlocked, "unlock of \"\(name)\"")
        return value
    }

    public func load() throws(TelenoridError) -> SecretBytes? {
        let (outcome, data) = functions.load(key)
        try check(outcome, "load of \"\(key)\"")
        guard let data, data.count > 0 else { return nil }
        return data
    }

    public func save(_ serialized: SecretBytes) throws(TelenoridError) {
        try check(functions.store(key, serialized), "store of \"\(key)\"")
    }

    public func unreadable(_ error: TelenoridError) -> TelenoridError {
        guard error.kind == .malformed else { return error }
        return TelenoridError(.storeFailed, "the store's record \"\(key)\" is not an auth state: \(error.message)")
    }

    private func check(_ outcome: HostStoreFunctions.Outcome, _ operation: String) throws(TelenoridError) {
        switch outcome {
        case .done: return
        case .timedOut:
            throw TelenoridError(
                .storeFailed, "the store's \(operation) timed out after \(lockTimeoutMilliseconds) ms")
        case .failed(let code): throw TelenoridError(.storeFailed, "the store's \(operation) failed (\(code))")
        case .garbage(let why): throw TelenoridError(.storeFailed, "the store's \(operation) \(why)")
        }
    }
}

/// What a host's `load` hands over: one record, once, while the load runs. The host may call from any
/// thread it likes during the load, so the slot is locked.
public final class LoadedRecord: Sendable {
    private struct Slot {
        var data: SecretBytes?
        var refusal: String?
        var open = true
    }
    private let slot = Locked(Slot())

    public init() {}

    public func set(_ data: SecretBytes) throws(TelenoridError) {
        try slot.withLock { (slot: inout Slot) throws(TelenoridError) in
            guard slot.open else { throw TelenoridError(.invalidArgument, "the record's load has returned") }
            guard slot.data == nil else {
                slot.refusal = "handed over its record twice"
                throw TelenoridError(.invalidArgument, "the record was handed over twice")
            }
            slot.data = data
        }
    }

    /// Marks the load as failed: `why` completes "the store's load of "key" ...".
    public func refuse(_ why: String) { slot.withLock { $0.refusal = why } }

    /// Closes the slot: what was handed over, or why the load failed.
    public func finish() -> (SecretBytes?, String?) {
        slot.withLock { slot in
            slot.open = false
            return (slot.data, slot.refusal)
        }
    }
}
