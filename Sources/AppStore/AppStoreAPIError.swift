import BillingCore
import Foundation

/// An error answer of the App Store Server API: HTTP status, Apple's errorCode kept raw, and a class.
public struct AppStoreAPIError: Error, Sendable, CustomStringConvertible {
    /// What the caller should do about it.
    public enum Classification: String, Sendable {
        /// Over the rate limit (HTTP 429, errorCode 4290000): wait until `retryAfter`, then retry.
        case rateLimited
        /// Apple says try again (…02/…04/…06 "retryable" codes, 5000001, other 5xx): back off and retry.
        case retryable
        /// The id is unknown to Apple (4040010 and the non-retryable not-found codes).
        case notFound
        /// Our request is wrong (4000xxx): do not retry.
        case invalidRequest
        /// Our token was refused (HTTP 401): a configuration problem.
        case unauthorized
        /// Anything else: do not retry.
        case permanent
    }

    public let httpStatus: Int
    /// Apple's errorCode, raw (unknown codes are kept, never a decoding failure).
    public let errorCode: Int64?
    public let errorMessage: String?
    /// The instant `Retry-After` names (UNIX milliseconds), when sent.
    public let retryAfter: Date?

    /// Apple's error codes that mean "retry later".
    public static let retryableCodes: Set<Int64> = [4040002, 4040004, 4040006, 5000001]
    /// Apple's not-found codes.
    public static let notFoundCodes: Set<Int64> = [4040001, 4040003, 4040005, 4040010]

    /// Builds the error from a non-2xx answer.
    public init(httpStatus: Int, body: Data, retryAfterHeader: String?) {
        struct Body: Decodable { let errorCode: Int64?; let errorMessage: String? }
        // Probe: an error answer's body may be HTML or empty; the status alone classifies it, the body only adds detail.
        let decoded = try? JSONDecoder().decode(Body.self, from: body)
        self.httpStatus = httpStatus
        self.errorCode = decoded?.errorCode
        self.errorMessage = decoded?.errorMessage
        self.retryAfter = retryAfterHeader.flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// The class that decides retry behaviour.
    public var classification: Classification {
        if httpStatus == 429 || errorCode == 4290000 { return .rateLimited }
        if let errorCode, Self.retryableCodes.contains(errorCode) { return .retryable }
        if let errorCode, Self.notFoundCodes.contains(errorCode) { return .notFound }
        if httpStatus == 401 { return .unauthorized }
        if httpStatus >= 500 { return .retryable }
        if httpStatus == 404 { return .notFound }
        if httpStatus == 400 || (errorCode.map { (4000000..<4010000).contains($0) } ?? false) { return .invalidRequest }
        return .permanent
    }

    public var description: String {
        "App Store Server API answered HTTP \(httpStatus)" + (errorCode.map { " errorCode \($0)" } ?? "")
            + (errorMessage.map { ": \($0)" } ?? "") + " (\(classification.rawValue))"
    }
}

extension AppStoreAPIError: KindedFailure {
    /// `http_<status>`.
    public var failureKind: FailureKind { .http(status: httpStatus) }
}
