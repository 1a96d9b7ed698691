import CTelenorid
import TelenoridCore

// Key-value pairs (telenorid_params): the IdP-app flow's messages as an Android bundle carries them
// rather than as a URL.

/// The pair at a caller's index, which is checked rather than trusted.
private func pairAt(_ parameters: FormParameters, _ index: Int) throws(TelenoridError) -> FormParameters.Pair {
    guard index >= 0, index < parameters.pairs.count else {
        throw TelenoridError(.invalidArgument, "index \(index) is past the \(parameters.pairs.count) pairs")
    }
    return parameters.pairs[index]
}

@c @implementation
public func telenorid_params_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try outPointer(out).pointee = retainedHandle(FormParameters())
    }
}

@c @implementation
public func telenorid_params_add(
    _ params: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        let key = try inputString(name, "name"), text = try inputString(value, "value")
        guard !key.isEmpty else { throw TelenoridError(.invalidArgument, "a parameter needs a name") }
        try handle.value.append(key, text)
    }
}

@c @implementation
public func telenorid_params_count(_ params: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        try outPointer(out).pointee = handle.value.pairs.count
    }
}

@c @implementation
public func telenorid_params_name(
    _ params: OpaquePointer?, _ index: Int,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    pairString(params, index, out) { $0.name }
}

@c @implementation
public func telenorid_params_value(
    _ params: OpaquePointer?, _ index: Int,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    pairString(params, index, out) { $0.value }
}

/// The name and the value of a pair share one shape.
private func pairString(
    _ params: OpaquePointer?, _ index: Int, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ field: (FormParameters.Pair) -> String
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        let out = try outPointer(out)
        try writeString(field(try pairAt(handle.value, index)), to: out)
    }
}

@c @implementation
public func telenorid_params_free(_ params: OpaquePointer?) {
    release(params)
}
