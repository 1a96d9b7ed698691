// The C library of the platform, imported once for the whole core and re-exported to the export layer
// (Sources/Telenorid), so that no other file names it.
//
// The shipped library is built in Embedded Swift (scripts/embedded.sh), where no Glibc or Android module
// exists: there the C library is the project's own module CPlatform (Sources/CPlatform/platform.h), and this
// file supplies the few things the Glibc overlay would (errno, the non-variadic open and fcntl). The Swift
// tests build the same sources in the standard mode, with Glibc (or Android: bionic, as the Swift SDK for
// Android exposes it; getrandom(2) only from API level 28, the minSdk of bindings/jni/android), and CPlatform
// for the helpers of its own that both modes call.
@_exported import CPlatform

#if !hasFeature(Embedded)
    #if canImport(Glibc)
        @_exported import Glibc
    #elseif canImport(Android)
        @_exported import Android
    #elseif canImport(Darwin)
        @_exported import Darwin
    #else
        #error("telenorid: no C library module for this platform")
    #endif
#endif

#if hasFeature(Embedded)
    /// The calling thread's errno (a macro in C, so not imported).
    var errno: Int32 { telenorid_platform_errno() }

    /// open(2) with its mode argument (variadic in C, so not imported).
    func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        telenorid_platform_open(path, flags, mode)
    }

    /// fcntl(2) with an integer argument, or none.
    func fcntl(_ descriptor: Int32, _ command: Int32, _ argument: Int32 = 0) -> Int32 {
        telenorid_platform_fcntl_int(descriptor, command, argument)
    }
#endif

/// The C library's calls whose names members of the core's own types take (a listener's `socket`, its
/// `poll`, an allocator's `free`), under one name whatever the platform's module is called.
enum LibC {
    static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if hasFeature(Embedded)
            CPlatform.socket(domain, type, proto)
        #elseif canImport(Glibc)
            Glibc.socket(domain, type, proto)
        #else
            Android.socket(domain, type, proto)
        #endif
    }

    static func poll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
        #if hasFeature(Embedded)
            CPlatform.poll(fds, count, timeout)
        #elseif canImport(Glibc)
            Glibc.poll(fds, count, timeout)
        #else
            Android.poll(fds, count, timeout)
        #endif
    }

    static func accept(_ socket: Int32) -> Int32 {
        #if hasFeature(Embedded)
            CPlatform.accept(socket, nil, nil)
        #elseif canImport(Glibc)
            Glibc.accept(socket, nil, nil)
        #else
            Android.accept(socket, nil, nil)
        #endif
    }

    static func free(_ block: UnsafeMutableRawPointer?) {
        #if hasFeature(Embedded)
            CPlatform.free(block)
        #elseif canImport(Glibc)
            Glibc.free(block)
        #else
            Android.free(block)
        #endif
    }

    /// A non-blocking TCP socket closed on exec: glibc's SOCK_* are enum cases, bionic's plain integers.
    static var nonBlockingStreamSocket: Int32 {
        #if hasFeature(Embedded)
            telenorid_platform_nonblocking_stream_socket()
        #elseif canImport(Android)
            SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK
        #else
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #endif
    }
}
