import CCurl
import CCurlShim
import Foundation

/// A synchronous, thread-safe HTTP/1.1 client on libcurl that reuses connections through a pool
/// of easy handles. TLS verification is always on; plain http is allowed only for loopback hosts.
public final class HTTPClient: @unchecked Sendable {
    public let configuration: HTTPClientConfiguration
    private let share = CurlShare()
    private let lock = NSLock()
    private var idle: [CurlEasyHandle] = []

    /// Makes a client; connections open lazily on the first request to each host.
    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.configuration = configuration
    }

    /// Sends one request and waits for the full response. Call from any number of threads.
    public func send(_ request: HTTPRequest, timeout: HTTPTimeouts? = nil) throws(HTTPError) -> HTTPResponse {
        let started = ContinuousClock.now
        let limits = timeout ?? configuration.timeouts
        var sent = 0
        var received = 0
        var status: Int?
        var failure: HTTPError?
        defer {
            if let log = configuration.log {
                let elapsed = ContinuousClock.now - started
                let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                log(HTTPExchangeLog(method: request.method, maskedURL: LogMasking.maskURL(request.url), status: status,
                                    latencyMilliseconds: milliseconds, bytesSent: sent, bytesReceived: received, error: failure))
            }
        }
        do {
            try RequestValidation.validate(request)
            let easy = try checkOut()
            defer { checkIn(easy) }
            let exchange = CurlExchange(easy: easy, request: request, limits: limits, configuration: configuration)
            let response = try exchange.perform()
            sent = exchange.bytesSent
            received = exchange.bytesReceived
            status = response.status
            return response
        } catch {
            failure = error
            throw error
        }
    }

    private func checkOut() throws(HTTPError) -> CurlEasyHandle {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        guard let fresh = CurlEasyHandle(share: share) else {
            throw .other(code: -1, message: "libcurl could not create an easy handle (curl_global_init or curl_easy_init failed)")
        }
        return fresh
    }

    private func checkIn(_ handle: CurlEasyHandle) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < configuration.maxIdleHandles { idle.append(handle) }
    }
}
