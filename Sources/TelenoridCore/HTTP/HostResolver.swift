import CCurl

/// A host's own name lookup for the requests of line authentication: on Android the app resolves on the
/// network it binds the sockets to (`android_getaddrinfofornetwork`), since the system resolver answers
/// for the default network (Wi-Fi, a VPN), where split or carrier DNS may name an address the mobile line
/// never reaches.
public struct HostResolver: Sendable {
    public enum Answer: Sendable, Equatable {
        /// IP address literals (IPv4 dotted quads, IPv6 without brackets), separated by commas or white space.
        case addresses(String)
        /// The name cannot be resolved: the request fails with `.network`.
        case refuse
        /// No cellular network: the request fails with `.lineAuthUnavailable`.
        case notCellular
    }

    let resolve: @Sendable (String, Int) -> Answer

    public init(_ resolve: @escaping @Sendable (_ host: String, _ port: Int) -> Answer) { self.resolve = resolve }

    /// At most this many addresses are taken from one answer (more are refused as malformed).
    static let maxAddresses = 16

    /// The CURLOPT_RESOLVE line for one request to `host`:`port`: the host's answer, or, without a
    /// resolver, the removal of any earlier answer ("-host:port"), so the system resolver is asked again.
    /// An IP literal host needs no lookup: nil.
    static func resolveLine(_ resolver: HostResolver?, host: String, port: Int) throws(TelenoridError) -> String? {
        let name = Array(host.utf8)
        guard !name.isEmpty, !name.contains(UInt8(ascii: ":")), !IPAddress.isIPv4(name[...]) else { return nil }
        // The host comes from a URL the policy checked; still, the line's syntax has no escapes.
        guard !name.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ",") || $0 >= 0x7F }) else {
            throw TelenoridError(.invalidArgument, "host name cannot be handed to libcurl's resolve list")
        }
        guard let resolver else { return "-\(host):\(port)" }
        switch resolver.resolve(host, port) {
        case .refuse:
            throw TelenoridError(.network, "the host resolver could not resolve \(host)")
        case .notCellular:
            throw TelenoridError(.lineAuthUnavailable, "the host resolver reports no cellular network")
        case .addresses(let text):
            return "\(host):\(port):" + (try curlAddresses(text, host: host))
        }
    }

    /// The answer's addresses in CURLOPT_RESOLVE form: comma-separated, IPv6 in brackets. Each is checked
    /// here, since libcurl skips an address it cannot read and would then ask the system resolver.
    static func curlAddresses(_ text: String, host: String) throws(TelenoridError) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var count = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && !isSeparator(bytes[end]) { end += 1 }
            if end > start {
                let address = bytes[start..<end]
                count += 1
                guard count <= maxAddresses else {
                    throw TelenoridError(.invalidArgument, "the host resolver gave more than \(maxAddresses) addresses")
                }
                if !out.isEmpty { out.append(UInt8(ascii: ",")) }
                if IPAddress.isIPv4(address) {
                    out.append(contentsOf: address)
                } else if IPAddress.isIPv6(address) {
                    out.append(UInt8(ascii: "["))
                    out.append(contentsOf: address)
                    out.append(UInt8(ascii: "]"))
                } else {
                    throw TelenoridError(
                        .invalidArgument, "the host resolver's answer for \(host) is not a list of IP address literals")
                }
            }
            start = end + 1
        }
        guard count > 0 else { throw TelenoridError(.network, "the host resolver gave no address for \(host)") }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

}

/// The one-line curl_slist a request hands to CURLOPT_RESOLVE; libcurl reads it when the transfer starts.
final class ResolveList {
    let head: UnsafeMutablePointer<curl_slist>

    init(_ line: String) throws(TelenoridError) {
        guard let head = curl_slist_append(nil, line) else {
            throw TelenoridError(.network, "out of memory building the resolve list")
        }
        self.head = head
    }

    deinit { curl_slist_free_all(head) }
}
