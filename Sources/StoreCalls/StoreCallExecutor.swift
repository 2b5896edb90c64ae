import Foundation
import HTTP
import RateLimiting

/// Runs store API calls: waits for a rate-limit token, sends, lets the client judge the answer, and
/// retries transient failures with full-jitter backoff or exactly at the store's Retry-After.
/// Every attempt is reported to `observer` (for `store_query` rows and logs).
public struct StoreCallExecutor: Sendable {
    /// Sends one request (an `HTTPClient`, in production and tests).
    public typealias Send = @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse

    public let send: Send
    /// The limiter for an endpoint, or nil for calls without a quota.
    public let limiter: @Sendable (StoreEndpoint) -> (any RateLimiter)?
    public let retryPolicy: RetryPolicy
    public let clock: any RateLimitClock
    public let observer: (@Sendable (StoreCallAttempt) -> Void)?

    /// An executor.
    public init(send: @escaping Send, limiter: @escaping @Sendable (StoreEndpoint) -> (any RateLimiter)? = { _ in nil },
                retryPolicy: RetryPolicy = RetryPolicy(), clock: any RateLimitClock = SystemRateLimitClock(),
                observer: (@Sendable (StoreCallAttempt) -> Void)? = nil) {
        self.send = send
        self.limiter = limiter
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.observer = observer
    }

    /// Executes one logical call. `makeRequest` runs per attempt (so each attempt can carry a fresh token);
    /// `judge` classifies each HTTP answer.
    public func execute(_ endpoint: StoreEndpoint?, label: String? = nil, makeRequest: () throws -> HTTPRequest,
                        judge: (HTTPResponse) -> StoreCallVerdict) throws(StoreCallError) -> HTTPResponse {
        let name = label ?? endpoint?.rawValue ?? "store"
        let gate = endpoint.flatMap(limiter)
        do {
            return try attempts(name, gate, makeRequest, judge)
        } catch {
            // When the retries run out, report the store's own error, not the retry wrapper.
            if case .store(let wrapped as RetryableStoreError) = error { throw .store(wrapped.underlying) }
            throw error
        }
    }

    private func attempts(_ name: String, _ gate: (any RateLimiter)?, _ makeRequest: () throws -> HTTPRequest,
                          _ judge: (HTTPResponse) -> StoreCallVerdict) throws(StoreCallError) -> HTTPResponse {
        try retryPolicy.run(clock: clock, { (attempt: Int) throws(StoreCallError) -> HTTPResponse in
            if let gate {
                do throws(RateLimitError) { try gate.acquire() } catch { throw StoreCallError.rateLimit(error) }
            }
            let request: HTTPRequest
            do { request = try makeRequest() } catch { throw StoreCallError.request(SendableError(error)) }
            let started = clock.now()
            let response: HTTPResponse
            do throws(HTTPError) {
                response = try send(request)
            } catch {
                report(name, attempt, Self.outcome(of: error), nil, nil, started)
                throw StoreCallError.transport(error)
            }
            switch judge(response) {
            case .success:
                report(name, attempt, "ok", response.status, nil, started)
                return response
            case .retry(let outcome, let code, let retryAt, let error):
                report(name, attempt, outcome, response.status, code, started)
                if let retryAt { try? gate?.block(until: retryAt) }
                throw StoreCallError.store(RetryableStoreError(underlying: error, retryAt: retryAt))
            case .fail(let outcome, let code, let error):
                report(name, attempt, outcome, response.status, code, started)
                throw StoreCallError.store(error)
            }
        }, decide: { (error: StoreCallError) -> RetryDecision in
            switch error {
            case .transport(let transport): return transport.isTransient ? .retry : .fail
            case .store(let store as RetryableStoreError): return store.retryAt.map(RetryDecision.retryAt) ?? .retry
            case .store, .rateLimit, .request: return .fail
            }
        })
    }

    private func report(_ name: String, _ attempt: Int, _ outcome: String, _ status: Int?, _ code: String?, _ started: Date) {
        let latency = max(0, Int(clock.now().timeIntervalSince(started) * 1000))
        observer?(StoreCallAttempt(endpoint: name, attempt: attempt, outcome: outcome, httpStatus: status,
                                   storeErrorCode: code, latencyMilliseconds: latency))
    }

    static func outcome(of error: HTTPError) -> String {
        switch error {
        case .timeout: return "timeout"
        case .connectionFailed: return "connection_failed"
        case .truncatedBody: return "truncated_body"
        case .tls: return "tls"
        case .responseTooLarge: return "response_too_large"
        default: return "transport"
        }
    }
}

/// A store error that the verdict marked retryable; unwrapped again when the retries run out.
struct RetryableStoreError: Error, Sendable {
    let underlying: any Error & Sendable
    let retryAt: Date?
}

/// Wraps a non-Sendable error's description so it can cross threads.
struct SendableError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = "\(error)" }
}
