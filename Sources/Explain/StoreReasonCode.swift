/// The stores' numeric reason codes explain names, with the lists of the project's API facts
/// (docs/store-apis.md, google-androidpublisher-v3-schema.txt): shown as `billing error (2)`, the name with the raw
/// code kept; a code the list does not hold shows as `unknown (17)`.
public enum StoreReasonCode: Sendable, CaseIterable {
    /// Apple transaction `revocationReason` (`billing_transaction.revocation_reason`).
    case appleRevocationReason
    /// Apple renewal info `expirationIntent` (the projection keeps it as the churn reason name, not as a number).
    case appleExpirationIntent
    /// Google voided purchase `voidedSource` (`billing_transaction.voided_source`).
    case googleVoidedSource
    /// Google voided purchase `voidedReason` (`billing_transaction.voided_reason`).
    case googleVoidedReason

    /// The code list whose raw number a timeline detail of that name holds, if any.
    public init?(detail name: String) {
        switch name {
        case "revocation_reason": self = .appleRevocationReason
        case "voided_source": self = .googleVoidedSource
        case "voided_reason": self = .googleVoidedReason
        default: return nil
        }
    }

    /// Each documented code and its name.
    public var names: [Int64: String] {
        switch self {
        case .appleRevocationReason: return [0: "other", 1: "app issue"]
        case .appleExpirationIntent:
            return [1: "customer cancelled", 2: "billing error", 3: "did not consent to price increase", 4: "product unavailable",
                    5: "other"]
        case .googleVoidedSource: return [0: "user", 1: "developer", 2: "Google"]
        case .googleVoidedReason:
            return [0: "other", 1: "remorse", 2: "not received", 3: "defective", 4: "accidental purchase", 5: "fraud",
                    6: "friendly fraud", 7: "chargeback", 8: "unacknowledged purchase"]
        }
    }

    /// `billing error (2)`, or `unknown (17)` for a code the list does not hold.
    public func describe(_ code: Int64) -> String {
        (names[code] ?? "unknown") + " (\(code))"
    }
}
