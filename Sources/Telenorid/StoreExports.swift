import CTelenorid
import TelenoridCore

// Stores: the host's functions (telenorid_store_functions) wrapped as the core's `HostStoreFunctions`,
// the directory store, and binding auth states to a record of either.

/// The host's functions and user data. The last reference goes when the store handle and every auth
/// state bound through it are freed: then the host's `release` runs, once.
private final class HostStoreFunctionTable: @unchecked Sendable {
    // The host promised, by passing them, that the functions may run on any thread with this pointer.
    let functions: telenorid_store_functions
    let userData: UnsafeMutableRawPointer?

    init(_ functions: telenorid_store_functions, _ userData: UnsafeMutableRawPointer?) {
        self.functions = functions
        self.userData = userData
    }

    deinit {
        if let release = functions.release { HostCallbackDepth.around { release(userData) } }
    }

    /// The outcome of one call of the host's: TELENORID_E_TIMEOUT from `lock` is a timeout.
    private static func outcome(_ status: telenorid_status) -> HostStoreFunctions.Outcome {
        switch status {
        case TELENORID_OK: .done
        case TELENORID_E_TIMEOUT: .timedOut
        default: .failed(status)
        }
    }

    var core: HostStoreFunctions {
        HostStoreFunctions(
            load: { key in self.load(key) },
            store: { key, data in
                key.withCString { name in
                    data.withUnsafeBytes { bytes in
                        Self.outcome(
                            HostCallbackDepth.around {
                                self.functions.store?(
                                    self.userData, name, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    bytes.count) ?? TELENORID_E_INVALID_ARGUMENT
                            })
                    }
                }
            },
            lock: { name, timeout in
                Self.outcome(
                    name.withCString { name in
                        HostCallbackDepth.around {
                            self.functions.lock?(self.userData, name, timeout) ?? TELENORID_E_INVALID_ARGUMENT
                        }
                    })
            },
            unlock: { name in
                Self.outcome(
                    name.withCString { name in
                        HostCallbackDepth.around {
                            self.functions.unlock?(self.userData, name) ?? TELENORID_E_INVALID_ARGUMENT
                        }
                    })
            })
    }

    private func load(_ key: String) -> (HostStoreFunctions.Outcome, SecretBytes?) {
        let slot = LoadedRecord()
        let record = retainedHandle(slot)
        defer { release(record) }
        let status = key.withCString { name in
            HostCallbackDepth.around { functions.load?(userData, name, record) ?? TELENORID_E_INVALID_ARGUMENT }
        }
        let (data, refusal) = slot.finish()
        if let refusal { return (.garbage(refusal), nil) }
        let outcome = Self.outcome(status)
        return (outcome, outcome == .done ? data : nil)
    }
}

@c @implementation
public func telenorid_store_new(
    _ functions: UnsafePointer<telenorid_store_functions>?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        guard let functions else { throw TelenoridError(.invalidArgument, "functions is NULL") }
        // The 0.5.0 struct is the smallest a host may pass; a later, larger one has its new members last.
        guard functions.pointee.size >= MemoryLayout<telenorid_store_functions>.size else {
            throw TelenoridError(
                .invalidArgument,
                "functions->size is \(functions.pointee.size), less than sizeof(telenorid_store_functions)")
        }
        let table = functions.pointee
        guard table.load != nil, table.store != nil, table.lock != nil, table.unlock != nil else {
            throw TelenoridError(.invalidArgument, "functions lacks load, store, lock or unlock")
        }
        let out = try outPointer(out)
        out.pointee = retainedHandle(RecordStore.host(HostStoreFunctionTable(table, userData).core))
    }
}

@c @implementation
public func telenorid_store_new_directory(
    _ directory: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let directory = try inputString(directory, "directory")
        guard !directory.isEmpty, !directory.utf8.contains(0) else {
            throw TelenoridError(.invalidArgument, "directory is empty")
        }
        let out = try outPointer(out)
        out.pointee = retainedHandle(RecordStore.directory(directory))
    }
}

@c @implementation
public func telenorid_store_record_set(
    _ record: OpaquePointer?, _ data: UnsafePointer<UInt8>?, _ length: Int
) -> telenorid_status {
    // Called from inside the host's load, where every other export is refused.
    exportCallInsideHostCallback { () throws(TelenoridError) in
        let slot = try borrow(record, as: LoadedRecord.self, "record").value
        guard let data else {
            slot.refuse("handed over a NULL record")
            throw TelenoridError(.invalidArgument, "data is NULL")
        }
        // size_t arrives as Int: a length of 2^63 or more reads as negative.
        guard length >= 0, length <= HostStore.maximumBytes else {
            slot.refuse("handed over a record larger than an auth state can be")
            throw TelenoridError(.invalidArgument, "len is over TELENORID_MAX_INPUT")
        }
        try slot.set(
            SecretBytes(count: length) { out in
                if let to = out.baseAddress { ByteCopy.copy(UnsafeBufferPointer(start: data, count: length), to: to) }
            })
    }
}

@c @implementation
public func telenorid_store_free(_ store: OpaquePointer?) {
    release(store)
}

@c @implementation
public func telenorid_auth_state_bind_store(
    _ state: OpaquePointer?, _ store: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let session = try borrow(state, as: ClientAuthState.self, "state").value
        let store = try borrow(store, as: RecordStore.self, "store").value
        try session.state.bind(
            to: try store.authStateStore(
                key: try inputString(key, "key"),
                lockTimeoutMilliseconds: session.client.configuration.http.totalTimeoutMilliseconds))
    }
}

@c @implementation
public func telenorid_auth_state_save(_ state: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(state, as: ClientAuthState.self, "state").value.state.save()
    }
}

@c @implementation
public func telenorid_auth_state_open_store(
    _ client: OpaquePointer?, _ store: OpaquePointer?, _ key: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let record = try borrow(store, as: RecordStore.self, "store").value.authStateStore(
            key: try inputString(key, "key"),
            lockTimeoutMilliseconds: client.configuration.http.totalTimeoutMilliseconds)
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientAuthState(state: try client.openAuthState(record), client: client))
    }
}
