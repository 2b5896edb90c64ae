import BillingCore
import Foundation

/// An error answer of Google's APIs, classified for retry decisions.
public struct GooglePlayAPIError: Error, Sendable, CustomStringConvertible {
    /// What the caller should do about it.
    public enum Classification: String, Sendable {
        /// 429, or 403 with reason rateLimitExceeded / userRateLimitExceeded: back off with jitter.
        case rateLimited
        /// 5xx: retry with backoff.
        case retryable
        /// 410: the token is no longer queryable (more than 60 days past expiry).
        case gone
        /// 404: unknown token, package or object.
        case notFound
        /// 401: our access token was refused; refresh it once.
        case unauthorized
        /// Other 4xx: our request is wrong or not allowed.
        case invalidRequest
    }

    public let httpStatus: Int
    public let message: String?
    /// Google's `status` (e.g. RESOURCE_EXHAUSTED) and the first error `reason` (e.g. rateLimitExceeded).
    public let status: String?
    public let reason: String?

    /// Builds the error from a non-2xx answer with Google's `{error: {code, message, status, errors: [{reason}]}}` body.
    public init(httpStatus: Int, body: Data) {
        struct Envelope: Decodable {
            struct Detail: Decodable { let reason: String? }
            struct Body: Decodable { let message: String?; let status: String?; let errors: [Detail]? }
            let error: Body?
        }
        // Probe: an error answer's body may be HTML or empty; the status alone classifies it, the body only adds detail.
        let decoded = try? JSONDecoder().decode(Envelope.self, from: body)
        self.httpStatus = httpStatus
        self.message = decoded?.error?.message
        self.status = decoded?.error?.status
        self.reason = decoded?.error?.errors?.first?.reason
    }

    /// The class that decides retry behaviour.
    public var classification: Classification {
        switch httpStatus {
        case 429: return .rateLimited
        case 403 where reason == "rateLimitExceeded" || reason == "userRateLimitExceeded": return .rateLimited
        case 410: return .gone
        case 404: return .notFound
        case 401: return .unauthorized
        case 500...599: return .retryable
        default: return .invalidRequest
        }
    }

    public var description: String {
        "Google API answered HTTP \(httpStatus)" + (status.map { " \($0)" } ?? "") + (reason.map { " (\($0))" } ?? "")
            + (message.map { ": \($0)" } ?? "") + " [\(classification.rawValue)]"
    }
}

extension GooglePlayAPIError: KindedFailure {
    /// `http_<status>`.
    public var failureKind: FailureKind { .http(status: httpStatus) }
}
