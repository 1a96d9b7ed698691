import CTelenorid
import TelenoridCore

// Accounts: a registry of the users signed in through one client, kept in a store.

@c @implementation
public func telenorid_accounts_open(
    _ client: OpaquePointer?, _ store: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let store = try borrow(store, as: RecordStore.self, "store").value
        let name = try inputString(name, "name")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try AccountRegistry(client: client, store: store, name: name))
    }
}

@c @implementation
public func telenorid_accounts_add(
    _ accounts: OpaquePointer?, _ state: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let registry = try borrow(accounts, as: AccountRegistry.self, "accounts").value
        let session = try borrow(state, as: ClientAuthState.self, "state").value
        let out = try outPointer(out)
        try writeString(try registry.add(session), to: out)
    }
}

@c @implementation
public func telenorid_accounts_list(
    _ accounts: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let registry = try borrow(accounts, as: AccountRegistry.self, "accounts").value
        let out = try outPointer(out)
        try writeString(JSON.serialize(.array(try registry.accounts().map { .object($0) })), to: out)
    }
}

@c @implementation
public func telenorid_accounts_select(
    _ accounts: OpaquePointer?, _ accountID: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let registry = try borrow(accounts, as: AccountRegistry.self, "accounts").value
        let id = try inputString(accountID, "account_id")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try registry.select(id))
    }
}

@c @implementation
public func telenorid_accounts_remove(_ accounts: OpaquePointer?, _ accountID: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let registry = try borrow(accounts, as: AccountRegistry.self, "accounts").value
        try registry.remove(try inputString(accountID, "account_id"))
    }
}

@c @implementation
public func telenorid_accounts_free(_ accounts: OpaquePointer?) {
    release(accounts)
}
