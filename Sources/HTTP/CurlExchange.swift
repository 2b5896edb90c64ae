import CCurl
import CCurlShim
import Foundation

/// One request performed on a checked-out easy handle: options, callbacks, perform, error mapping.
final class CurlExchange {
    let easy: CurlEasyHandle
    let request: HTTPRequest
    let limits: HTTPTimeouts
    let configuration: HTTPClientConfiguration
    private(set) var bytesSent = 0
    private(set) var bytesReceived = 0

    init(easy: CurlEasyHandle, request: HTTPRequest, limits: HTTPTimeouts, configuration: HTTPClientConfiguration) {
        self.easy = easy
        self.request = request
        self.limits = limits
        self.configuration = configuration
    }

    func perform() throws(HTTPError) -> HTTPResponse {
        easy.reset()
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connect))
        try easy.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.total))
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        try easy.set(CURLOPT_TCP_NODELAY, 1)
        if let caFile = configuration.caFilePath { try easy.set(CURLOPT_CAINFO, caFile) }
        if request.header("User-Agent") == nil { try easy.set(CURLOPT_USERAGENT, configuration.userAgent) }

        let headers = CurlHeaderList()
        for header in request.headers {
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            guard headers.append(line) else { throw .other(code: -1, message: "out of memory building headers") }
        }
        // No `Expect: 100-continue` round trip; no form content type curl would otherwise invent.
        _ = headers.append("Expect:")
        if request.header("Content-Type") == nil { _ = headers.append("Content-Type:") }
        try easy.check(ccurl_setopt_slist(easy.handle, CURLOPT_HTTPHEADER, headers.list), CURLOPT_HTTPHEADER)

        let accumulator = ResponseAccumulator(maxBodyBytes: configuration.maxResponseBytes)
        let userdata = Unmanaged.passUnretained(accumulator).toOpaque()
        try easy.check(ccurl_setopt_write_callback(easy.handle, ResponseAccumulator.writeCallback, userdata), CURLOPT_WRITEFUNCTION)
        try easy.check(ccurl_setopt_header_callback(easy.handle, ResponseAccumulator.headerCallback, userdata), CURLOPT_HEADERFUNCTION)

        let code: CURLcode = withExtendedLifetime((headers, accumulator)) {
            request.body.withUnsafeBytes { body in performWithBody(body) }
        }
        bytesSent = request.body.count
        bytesReceived = Int(easy.infoOffset(CURLINFO_SIZE_DOWNLOAD_T))
        if accumulator.exceededLimit { throw .responseTooLarge(limitBytes: configuration.maxResponseBytes) }
        guard code == CURLE_OK else { throw mapError(code) }
        return HTTPResponse(status: easy.infoLong(CURLINFO_RESPONSE_CODE), headers: accumulator.headers, body: accumulator.body)
    }

    /// Sets the method and body options (the body pointer is valid only inside this call) and performs.
    private func performWithBody(_ body: UnsafeRawBufferPointer) -> CURLcode {
        let method = request.method.uppercased()
        let handle = easy.handle
        var setup = CURLE_OK
        func apply(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
        let sendsBody = !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH"
        if method == "HEAD" {
            apply(ccurl_setopt_long(handle, CURLOPT_NOBODY, 1))
        } else if sendsBody {
            apply(ccurl_setopt_long(handle, CURLOPT_POST, 1))
            apply(ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if let base = body.baseAddress, !body.isEmpty {
                apply(ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: base)))
            } else {
                apply(ccurl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, ""))
            }
            if method != "POST" { apply(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
        } else {
            apply(ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1))
            if method != "GET" { apply(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
        }
        guard setup == CURLE_OK else { return setup }
        return curl_easy_perform(handle)
    }

    private func mapError(_ code: CURLcode) -> HTTPError {
        let message = easy.message(for: code)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            let connectPhase = message.lowercased().hasPrefix("connection timed out") || message.lowercased().contains("connect")
            return .timeout(seconds: connectPhase ? limits.connect : limits.total, message: message)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_RECV_ERROR,
             CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionFailed(message)
        case CURLE_PARTIAL_FILE:
            return .truncatedBody(message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_INVALIDCERTSTATUS:
            return .tls(message)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL(message)
        default:
            return .other(code: Int(code.rawValue), message: message)
        }
    }

    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
    }
}
