import CTelenorid
import TelenoridCore

// Cancellation from another thread of the calls that block: a client's HTTP transfers, a loopback wait.

@c @implementation
public func telenorid_client_cancel(_ client: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(client, as: OIDCClient.self, "client").value.cancel()
    }
}

@c @implementation
public func telenorid_loopback_listener_cancel(_ listener: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(listener, as: LoopbackListener.self, "listener").value.cancel()
    }
}
