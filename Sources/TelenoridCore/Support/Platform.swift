// The C library of the platform, imported once for the whole core and re-exported to the export layer
// (Sources/Telenorid), so that no other file names it. Linux has glibc (module Glibc); Android has bionic,
// which the Swift SDK for Android exposes as module Android. Bionic has everything the core calls, though
// getrandom(2) only from API level 28 (the minSdk of bindings/jni/android).
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Android)
    @_exported import Android
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("telenorid: no C library module for this platform")
#endif

/// The C library's calls whose names members of the core's own types take (a listener's `socket`, its
/// `poll`, an allocator's `free`), under one name whatever the platform's module is called.
enum LibC {
    static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.socket(domain, type, proto)
        #else
            Android.socket(domain, type, proto)
        #endif
    }

    static func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.poll(fds, count, timeout)
        #else
            Android.poll(fds, count, timeout)
        #endif
    }

    static func accept(_ socket: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.accept(socket, nil, nil)
        #else
            Android.accept(socket, nil, nil)
        #endif
    }

    static func free(_ block: UnsafeMutableRawPointer?) {
        #if canImport(Glibc)
            Glibc.free(block)
        #else
            Android.free(block)
        #endif
    }

    /// A non-blocking TCP socket closed on exec: glibc's SOCK_* are enum cases, bionic's plain integers.
    static var nonBlockingStreamSocket: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #else
            SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK
        #endif
    }
}
