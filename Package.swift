// swift-tools-version:6.2
// telenorid: an OpenID Connect client core in Swift, shipped as libtelenorid.so behind include/telenorid.h.
import PackageDescription

// The names of 0.4 and before (include/telenorid.h, "Old names (aliases until 1.0)"): each another symbol at the
// address of its new name's function, made by the linker, so binaries linked against 0.4 load unchanged.
let oldNames: [(old: String, new: String)] =
    ["code", "parameter", "free"].map { ("telenorid_callback_\($0)", "telenorid_authorization_callback_\($0)") }
    + ["new", "set_socket_hook", "run", "valid_for", "apply", "free"].map {
        ("telenorid_line_auth_\($0)", "telenorid_line_authenticator_\($0)")
    }
    + ["new", "redirect_uri", "wait", "free", "cancel", "expect_state"].map {
        ("telenorid_loopback_\($0)", "telenorid_loopback_listener_\($0)")
    }

let package = Package(
    name: "telenorid",
    products: [
        // The one artifact hosts load. The Swift runtime is linked in statically (see the Telenorid target).
        .library(name: "telenorid", type: .dynamic, targets: ["Telenorid"])
    ],
    targets: [
        // The hand-written C contract, imported so `@c @implementation` can check every export against it.
        .systemLibrary(name: "CTelenorid", path: "include"),
        // OpenSSL's libcrypto: randomness and digests.
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libcurl, with typed wrappers for its variadic setters.
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // The protocol core: pure Swift, no Foundation, knows nothing of C callers. Optimised for size: the
        // stripped library's budget is 7.04 MB (the Makefile's SIZE_BUDGET), of which the static Swift runtime takes about 5.9 MB (a
        // library with one empty export, linked the same way; scripts/size_map.sh). No reflection metadata
        // either (20 KB): nothing uses Mirror, and no message prints a type's fields. Each function in a
        // section of its own, so --gc-sections drops the ones nothing calls (70 KB); and its public
        // functions are not marked as kept, since every caller of them is linked into the same library (the
        // C exports; the tests link the core into their own binary), so unused ones are dropped too (37 KB).
        .target(
            name: "TelenoridCore", dependencies: ["COpenSSL", "CCurl"],
            swiftSettings: [
                .unsafeFlags([
                    "-Osize", "-Xfrontend", "-disable-reflection-metadata",
                    "-Xfrontend", "-function-sections",
                    "-Xfrontend", "-internalize-at-link"
                ])
            ]),
        // The export layer: converts handles, strings and status codes, nothing more. Optimised for size
        // like the core (without reflection metadata either: 4 KB), its functions in sections of their own:
        // its cost is the calls it makes, not the code around them.
        .target(
            name: "Telenorid",
            dependencies: ["TelenoridCore", "CTelenorid"],
            swiftSettings: [
                .unsafeFlags([
                    "-Osize", "-Xfrontend", "-disable-reflection-metadata", "-Xfrontend", "-function-sections"
                ])
            ],
            linkerSettings: [
                // Only the C API is exported: public Swift symbols of the core stay local.
                .unsafeFlags([
                    "-static-stdlib", "-use-ld=lld", "-Xlinker", "--icf=all", "-Xlinker", "--gc-sections",
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Telenorid/exports.map"
                ]),
                .unsafeFlags(oldNames.flatMap { ["-Xlinker", "--defsym=\($0.old)=\($0.new)"] }),
                // Linux hosts load the versioned name (`make install` links libtelenorid.so.0 to it); an APK
                // carries only files named lib*.so, so on Android the SONAME is the plain name.
                .unsafeFlags(["-Xlinker", "-soname=libtelenorid.so.0"], .when(platforms: [.linux])),
                .unsafeFlags(["-Xlinker", "-soname=libtelenorid.so"], .when(platforms: [.android]))
            ]
        ),
        .testTarget(name: "TelenoridCoreTests", dependencies: ["TelenoridCore"])
    ]
)
