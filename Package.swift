// swift-tools-version:6.2
// telenorid: an OpenID Connect client core in Swift, shipped as libtelenorid.so behind include/telenorid.h.
//
// This package builds the core and the export layer in the standard mode, for the Swift tests (XCTest needs the
// full runtime) and the ThreadSanitizer run. The library that ships is built from the same sources in Embedded
// Swift by scripts/embedded.sh (`make build`): SwiftPM has no product type for that mode.
import PackageDescription

let package = Package(
    name: "telenorid",
    targets: [
        // The hand-written C contract, imported so `@c @implementation` can check every export against it.
        .systemLibrary(name: "CTelenorid", path: "include"),
        // The C library's headers and the few helpers of the project's own both builds call (Embedded Swift has
        // no Glibc module: Sources/TelenoridCore/Support/Platform.swift).
        .systemLibrary(name: "CPlatform", path: "Sources/CPlatform"),
        // OpenSSL's libcrypto: randomness and digests.
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libcurl, with typed wrappers for its variadic setters.
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // The protocol core: pure Swift, no Foundation, knows nothing of C callers.
        .target(
            name: "TelenoridCore", dependencies: ["CPlatform", "COpenSSL", "CCurl"]),
        // The export layer: converts handles, strings and status codes, nothing more (checked against the header by
        // `@c @implementation`).
        .target(
            name: "Telenorid", dependencies: ["TelenoridCore", "CTelenorid"],
            exclude: ["exports.map", "old_names.ld"]),
        .testTarget(name: "TelenoridCoreTests", dependencies: ["TelenoridCore"])
    ]
)
