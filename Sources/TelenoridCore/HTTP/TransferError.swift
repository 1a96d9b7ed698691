import CCurl

// How a failed libcurl transfer becomes the core's error: the kind a host can act on, and a message
// with the method, the URL without its query and libcurl's explanation.
extension EasyHandle {
    /// Maps a failed transfer to the core's error kinds. Messages carry the method, the URL without its
    /// query and libcurl's explanation; never a header value or a body.
    func error(for code: CURLcode, sink: ResponseSink, what: String, settings: HTTPSettings) -> TelenoridError {
        let reason = EasyHandle.describe(code, detail: errorDetail())
        // Checked first: when a callback stops the transfer libcurl reports only a generic write error.
        switch sink.exceeded {
        case .body:
            return TelenoridError(
                .responseTooLarge, "\(what): response body exceeds the limit of \(settings.maxBodyBytes) bytes")
        case .headers:
            return TelenoridError(
                .responseTooLarge, "\(what): response headers exceed the limit of \(settings.maxHeaderBytes) bytes")
        case nil:
            break
        }
        // libcurl refuses by itself a header line over CURL_MAX_HTTP_HEADER (100 kB) before the header
        // callback sees it, and says so with CURLE_OUT_OF_MEMORY (CURLE_TOO_LARGE, 100, from 8.6.0 on).
        // Only while the header block is still arriving is that the answer's size, not this process's.
        if !sink.headersComplete && (code == CURLE_OUT_OF_MEMORY || code.rawValue == EasyHandle.curleTooLarge) {
            return TelenoridError(
                .responseTooLarge, "\(what): a response header line exceeds libcurl's limit: \(reason)")
        }
        switch code {
        case CURLE_FILESIZE_EXCEEDED:
            return TelenoridError(
                .responseTooLarge,
                "\(what): response body exceeds the limit of \(settings.maxBodyBytes) bytes (by its Content-Length)")
        case CURLE_OPERATION_TIMEDOUT:
            return TelenoridError(
                .timeout,
                """
                \(what) timed out (connect limit \(settings.connectTimeoutMilliseconds) ms, \
                total \(settings.totalTimeoutMilliseconds) ms): \(reason)
                """
            )
        case CURLE_PARTIAL_FILE:
            return TelenoridError(
                .network, "\(what): response truncated, the connection closed before the whole body arrived: \(reason)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return TelenoridError(.tls, "\(what): TLS failed: \(reason)").neverSent()
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TelenoridError(.network, "\(what): name not resolved: \(reason)").neverSent()
        case CURLE_COULDNT_CONNECT:
            return TelenoridError(.network, "\(what): could not connect: \(reason)").neverSent()
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return TelenoridError(.network, "\(what): connection failed: \(reason)")
        default:
            return TelenoridError(.network, "\(what) failed: \(reason)")
        }
    }

    private func errorDetail() -> String {
        // Only during a transfer (see `errorBuffer`). Bounded by the buffer size even if libcurl had left it
        // unterminated.
        guard let errorBuffer else { return "" }
        let bytes = UnsafeBufferPointer(start: errorBuffer, count: EasyHandle.errorBufferSize)
        return String(
            decoding: HTTPResponse.trimmed(bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }), as: UTF8.self)
    }

    /// curl_easy_strerror's text, plus the error buffer's more specific one when it says more.
    static func describe(_ code: CURLcode, detail: String = "") -> String {
        let summary = String(cString: curl_easy_strerror(code))
        return detail.isEmpty || detail == summary ? summary : "\(summary) (\(detail))"
    }

    /// CURLE_TOO_LARGE, which the 7.x headers this may be built against do not define.
    private static let curleTooLarge: UInt32 = 100
}
