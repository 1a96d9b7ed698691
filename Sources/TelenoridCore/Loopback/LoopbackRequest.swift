/// Reading a request head that arrived at the loopback listener: its request line, its Host, and (when the
/// host gave one) the state of the query it carries.
enum LoopbackRequest {
    enum Outcome: Equatable { case redirect(target: String), notFound, badRequest }

    /// The index just past the request head's blank line, if it has arrived.
    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return index + 1 }  // bare LF LF
            if bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D { return index + 1 }
        }
        return nil
    }

    /// `GET <path>[?query] HTTP/1.x` with the listener's own Host gives the target. A request line that is
    /// not that shape, or a Host that is missing, repeated or another name, is a bad request: a page on
    /// another origin whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name as Host and
    /// gets nothing. A GET elsewhere or another method is not found. With `state`, the query must carry
    /// exactly that state once, else a bad request: a local process that guesses the port can't end the
    /// wait with a redirect of its own (RFC 8252 §8.3 leaves the loopback port open to every local process).
    static func outcome(ofHead head: [UInt8], path: String, port: UInt16, state: String?) -> Outcome {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return .badRequest }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/1.".utf8)) else { return .badRequest }
        let target = parts[1]
        // Printable ASCII only: browsers percent-encode the rest.
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .badRequest
        }
        guard let host = host(in: lines.dropFirst()), isOwn(host: host, port: port) else { return .badRequest }
        guard parts[0].elementsEqual("GET".utf8) else { return .notFound }
        let targetPath = target.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard targetPath.elementsEqual(path.utf8) else { return .notFound }
        let text = String(decoding: target, as: UTF8.self)
        if let state, !carries(state: state, target: text) { return .badRequest }
        return .redirect(target: text)
    }

    /// The value of the one Host field, trimmed; nil when there is none, more than one (RFC 9112 §3.2), or a
    /// field line that is obsolete folding or has whitespace before its colon (RFC 9112 §5.1, §5.2), which
    /// could hide a second Host from this reading but not from another.
    private static func host(in fields: ArraySlice<ArraySlice<UInt8>>) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        for line in fields {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                !line[..<colon].contains(where: { $0 == 0x20 || $0 == 0x09 })
            else { return nil }
            guard ASCII.equalsIgnoringCase(line[..<colon], "host".utf8) else { continue }
            guard found == nil else { return nil }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            found = value
        }
        return found
    }

    /// `127.0.0.1:<port>` or `localhost:<port>`, the name in any case; without the port only when it is 80,
    /// which browsers leave out (RFC 9110 §7.2).
    private static func isOwn(host: ArraySlice<UInt8>, port: UInt16) -> Bool {
        ["127.0.0.1", "localhost"].contains { name in
            ASCII.equalsIgnoringCase(host, "\(name):\(port)".utf8)
                || (port == 80 && ASCII.equalsIgnoringCase(host, name.utf8))
        }
    }

    /// Whether the query (the listener only ever sees the query: a fragment response's state stays in the
    /// browser) has one `state` parameter equal to `state`, compared in constant time so it can't be
    /// guessed byte by byte from response times. A malformed or repeated parameter fails too, as it would
    /// in the host's own check of the callback.
    private static func carries(state: String, target: String) -> Bool {
        // The query is what lies between the first "?" and the first "#" (RFC 3986 §3.4); a "?" after a
        // "#" is in the fragment, where the host's own parse of the callback will not look for state.
        let beforeFragment = target.prefix { $0 != "#" }
        guard let question = beforeFragment.firstIndex(of: "?") else { return false }
        let query = beforeFragment[beforeFragment.index(after: question)...]
        guard let parameters = try? FormParameters(parsing: query), let received = parameters["state"] else {
            return false
        }
        return Crypto.constantTimeEquals(received.utf8, state.utf8)
    }
}
