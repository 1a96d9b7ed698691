/// Where TLS trust comes from when the configuration names neither a CA file nor a CA path.
///
/// libcurl's default is the bundle path compiled into it, which is one distribution's: a libcurl built on
/// Debian (the one the wheel carries) looks for /etc/ssl/certs/ca-certificates.crt, which Fedora, RHEL,
/// openSUSE and Alpine do not have, so every handshake there would fail. So, as OpenSSL's own default
/// verify paths do, SSL_CERT_FILE and SSL_CERT_DIR name the trust when either is set; else the first
/// bundle present at a distribution's well-known location is used; else libcurl's default stays.
enum SystemTrust: Equatable, Sendable {
    /// No variable set and no well-known bundle present: libcurl's compiled-in paths.
    case libcurlDefault
    /// A bundle at a well-known location, as CURLOPT_CAINFO (CURLOPT_CAPATH stays libcurl's).
    case bundle(String)
    /// SSL_CERT_FILE and SSL_CERT_DIR, as CURLOPT_CAINFO and CURLOPT_CAPATH; the one not set is cleared,
    /// so libcurl's compiled-in path (another distribution's, perhaps absent) is not tried beside them.
    case environment(file: String?, directory: String?)

    /// The CA bundle files Go's crypto/x509 tries on Linux, in its order (src/crypto/x509/root_linux.go,
    /// `certFiles`): Debian/Ubuntu/Gentoo, Fedora/RHEL 6, openSUSE, OpenELEC, CentOS/RHEL 7, Alpine.
    static let wellKnownBundles = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/ssl/ca-bundle.pem",
        "/etc/pki/tls/cacert.pem",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
        "/etc/ssl/cert.pem"
    ]

    /// This process's choice, made once, when its first handle is configured (at its first request): the
    /// environment and the files are the machine's, and a client's trust must not change between requests.
    static let current = choose(
        variable: { (name: String) -> String? in
            guard let value = telenorid_platform_secure_getenv(name) else { return nil }
            return String(cString: value)
        },
        readable: { (path: String) -> Bool in access(path, R_OK) == 0 })

    /// The choice for an environment (`variable`: a variable's value, nil when unset) and a file system
    /// (`readable`: whether a file can be read). An empty variable counts as unset, as in OpenSSL and Go.
    static func choose(variable: (String) -> String?, readable: (String) -> Bool) -> SystemTrust {
        let file = variable("SSL_CERT_FILE").flatMap { $0.isEmpty ? nil : $0 }
        let directory = variable("SSL_CERT_DIR").flatMap { $0.isEmpty ? nil : $0 }
        if file != nil || directory != nil { return .environment(file: file, directory: directory) }
        for path in wellKnownBundles where readable(path) { return .bundle(path) }
        return .libcurlDefault
    }
}
