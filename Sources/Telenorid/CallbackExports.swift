import CTelenorid
import TelenoridCore

// Callbacks: the redirect with the code, and the Vipps/MobilePay app's return to the merchant app.

@c @implementation
public func telenorid_pending_auth_handle_callback(
    _ pending: OpaquePointer?, _ redirectURL: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        let url = try inputString(redirectURL, "redirect_url")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try pending.handleCallback(url))
    }
}

@c @implementation
public func telenorid_authorization_callback_code(
    _ callback: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let callback = try borrow(callback, as: AuthorizationCallback.self, "callback").value
        try writeString(callback.code, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_authorization_callback_parameter(
    _ callback: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let callback = try borrow(callback, as: AuthorizationCallback.self, "callback").value
        let key = try inputString(name, "name")
        try writeString(callback.parameters[key], to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_authorization_callback_free(_ callback: OpaquePointer?) {
    release(callback)
}

@c @implementation
public func telenorid_pending_auth_handle_app_callback(
    _ pending: OpaquePointer?, _ callbackURL: UnsafePointer<CChar>?,
    _ allowedResumeHost: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        let url = try inputString(callbackURL, "callback_url")
        let host = try optionalInputString(allowedResumeHost, "allowed_resume_host")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try pending.handleAppCallback(url, allowedResumeHost: host))
    }
}

@c @implementation
public func telenorid_app_callback_resume_uri(
    _ callback: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let callback = try borrow(callback, as: AppToAppCallback.self, "callback").value
        try writeString(callback.resumeURI, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_app_callback_free(_ callback: OpaquePointer?) {
    release(callback)
}
