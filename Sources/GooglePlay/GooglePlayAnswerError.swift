import BillingCore

/// A Google answer that arrived with a 2xx status but cannot be used, or a call the configuration cannot make.
/// Thrown (wrapped in `StoreCallError.store`) instead of skipping a page or returning an empty result.
public enum GooglePlayAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body did not decode as `what` (e.g. a Cloud Storage listing page); `detail` is the decoder's reason.
    case undecodable(what: String, detail: String)
    /// A report call was made without `GOOGLE_REPORT_BUCKET`.
    case noReportBucket

    public var description: String {
        switch self {
        case .undecodable(let what, let detail): return "Google answered 2xx with an undecodable \(what): \(detail)"
        case .noReportBucket: return "no Google report bucket is configured (GOOGLE_REPORT_BUCKET)"
        }
    }
}

extension GooglePlayAnswerError: KindedFailure {
    /// `undecodable`, or `not_configured` without a report bucket.
    public var failureKind: FailureKind {
        switch self {
        case .undecodable: return .undecodable
        case .noReportBucket: return .notConfigured
        }
    }
}
