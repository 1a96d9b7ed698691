import CTelenorid
import TelenoridCore

// The device authorization grant (RFC 8628): start, read what to show the user, wait for the approval.

@c @implementation
public func telenorid_client_start_device_authorization(
    _ client: OpaquePointer?, _ request: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let request =
            try request.map { (pointer) throws(TelenoridError) in
                try borrow(pointer, as: SharedAuthorizationRequest.self, "request").value.current
            }
        let out = try outPointer(out)
        out.pointee = retainedHandle(try client.startDeviceAuthorization(request))
    }
}

@c @implementation
public func telenorid_device_authorization_get(
    _ authorization: OpaquePointer?, _ field: telenorid_device_field,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authorization = try borrow(authorization, as: DeviceAuthorization.self, "authorization").value
        let out = try outPointer(out)
        let value: String?
        switch field {
        case TELENORID_DEVICE_USER_CODE: value = authorization.userCode
        case TELENORID_DEVICE_VERIFICATION_URI: value = authorization.verificationURI
        case TELENORID_DEVICE_VERIFICATION_URI_COMPLETE: value = authorization.verificationURIComplete
        default: throw TelenoridError(.invalidArgument, "unknown device authorization field \(field)")
        }
        try writeString(value, to: out)
    }
}

@c @implementation
public func telenorid_device_authorization_expires_at(
    _ authorization: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authorization = try borrow(authorization, as: DeviceAuthorization.self, "authorization").value
        try outPointer(out).pointee = authorization.expiresAt
    }
}

@c @implementation
public func telenorid_device_authorization_interval(
    _ authorization: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authorization = try borrow(authorization, as: DeviceAuthorization.self, "authorization").value
        try outPointer(out).pointee = Int32(clamping: authorization.interval)
    }
}

@c @implementation
public func telenorid_device_authorization_wait(
    _ authorization: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authorization = try borrow(authorization, as: DeviceAuthorization.self, "authorization").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(Session(state: try authorization.wait(), client: authorization.client))
    }
}

@c @implementation
public func telenorid_device_authorization_free(_ authorization: OpaquePointer?) {
    release(authorization)
}
