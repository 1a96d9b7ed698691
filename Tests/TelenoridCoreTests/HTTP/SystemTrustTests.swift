import XCTest
@testable import TelenoridCore

/// The choice of TLS trust for a configuration without a CA file or path, against a made-up environment and
/// file system (the real one, hidden in a mount namespace, is Tests/python/test_system_ca.py's).
final class SystemTrustTests: XCTestCase {
    private func choose(_ environment: [String: String], files: Set<String>) -> SystemTrust {
        SystemTrust.choose(variable: { environment[$0] }, readable: { files.contains($0) })
    }

    func testFirstWellKnownBundlePresentWinsInGosOrder() {
        XCTAssertEqual(
            choose([:], files: ["/etc/ssl/cert.pem", "/etc/pki/tls/certs/ca-bundle.crt"]),
            .bundle("/etc/pki/tls/certs/ca-bundle.crt"))
        XCTAssertEqual(
            choose([:], files: ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]),
            .bundle("/etc/ssl/certs/ca-certificates.crt"))
        XCTAssertEqual(choose([:], files: ["/etc/ssl/cert.pem"]), .bundle("/etc/ssl/cert.pem"))
        XCTAssertEqual(
            choose([:], files: ["/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"]),
            .bundle("/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"))
    }

    func testNothingFoundLeavesLibcurlsDefault() {
        XCTAssertEqual(choose([:], files: []), .libcurlDefault)
        XCTAssertEqual(choose([:], files: ["/etc/ssl/certs", "/usr/share/ca-certificates/x.crt"]), .libcurlDefault)
    }

    func testEnvironmentTakesPrecedenceOverEveryBundle() {
        let everywhere = Set(SystemTrust.wellKnownBundles)
        XCTAssertEqual(
            choose(["SSL_CERT_FILE": "/opt/ca.pem"], files: everywhere),
            .environment(file: "/opt/ca.pem", directory: nil))
        XCTAssertEqual(
            choose(["SSL_CERT_DIR": "/opt/certs"], files: everywhere),
            .environment(file: nil, directory: "/opt/certs"))
        XCTAssertEqual(
            choose(["SSL_CERT_FILE": "/opt/ca.pem", "SSL_CERT_DIR": "/opt/certs"], files: []),
            .environment(file: "/opt/ca.pem", directory: "/opt/certs"))
    }

    func testEmptyVariablesCountAsUnset() {
        XCTAssertEqual(
            choose(["SSL_CERT_FILE": "", "SSL_CERT_DIR": ""], files: ["/etc/ssl/ca-bundle.pem"]),
            .bundle("/etc/ssl/ca-bundle.pem"))
        XCTAssertEqual(
            choose(["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/opt/certs"], files: ["/etc/ssl/ca-bundle.pem"]),
            .environment(file: nil, directory: "/opt/certs"))
    }
}
