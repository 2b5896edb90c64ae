/// The share of eligible charges receiving each injected report discrepancy (at most one per charge).
///
/// Eligible: non-test charges with an amount; `refundMissingInDatabase` only charges never refunded;
/// `periodBoundary` only charges within `boundaryWindowHours` of a report-period edge (its share applies
/// to those). Test purchases are always excluded from the reports, as the stores do.
public struct ReportDiscrepancyShares: Sendable, Hashable {
    /// Charges in the report whose billing_transaction row is deleted after loading.
    public var missingInDatabase: Double
    /// Charges left out of the reports.
    public var missingInReport: Double
    /// Charges reported at the database amount plus 1% (at least 0.01).
    public var mismatchedCharge: Double
    /// Charges reported twice.
    public var duplicate: Double
    /// Charges reported in another currency (USD, or EUR for a USD charge) at the same amount.
    public var currencyMismatch: Double
    /// Charges the reports refund 3 days later (refund absent from the database).
    public var refundMissingInDatabase: Double
    /// Near-edge charges reported 1 hour across the edge, in the neighbouring period.
    public var periodBoundary: Double
    /// How close to a period edge a charge must be to be moved across it.
    public var boundaryWindowHours: Int64

    /// Creates shares; the defaults are 0.5% per kind, 20% of near-edge charges and no currency mismatch (so that
    /// worlds generated before the kind existed stay the same).
    public init(missingInDatabase: Double = 0.005, missingInReport: Double = 0.005, mismatchedCharge: Double = 0.005,
                duplicate: Double = 0.005, refundMissingInDatabase: Double = 0.005, periodBoundary: Double = 0.2,
                boundaryWindowHours: Int64 = 36, currencyMismatch: Double = 0) {
        self.missingInDatabase = missingInDatabase
        self.missingInReport = missingInReport
        self.mismatchedCharge = mismatchedCharge
        self.duplicate = duplicate
        self.currencyMismatch = currencyMismatch
        self.refundMissingInDatabase = refundMissingInDatabase
        self.periodBoundary = periodBoundary
        self.boundaryWindowHours = boundaryWindowHours
    }

    /// The default shares.
    public static let standard = ReportDiscrepancyShares()
    /// No injected discrepancies (test purchases are still excluded).
    public static let none = ReportDiscrepancyShares(missingInDatabase: 0, missingInReport: 0, mismatchedCharge: 0, duplicate: 0,
                                                     refundMissingInDatabase: 0, periodBoundary: 0)

    /// Every kind at `share` (near-edge charges too).
    public static func all(_ share: Double) -> ReportDiscrepancyShares {
        ReportDiscrepancyShares(missingInDatabase: share, missingInReport: share, mismatchedCharge: share, duplicate: share,
                                refundMissingInDatabase: share, periodBoundary: share, currencyMismatch: share)
    }

    /// The share of `kind` (test exclusion: always 1).
    func share(_ kind: ReportDiscrepancyKind) -> Double {
        switch kind {
        case .missingInDatabase: return missingInDatabase
        case .missingInReport: return missingInReport
        case .amountMismatch: return mismatchedCharge
        case .duplicate: return duplicate
        case .currencyMismatch: return currencyMismatch
        case .refundMissingInDatabase: return refundMissingInDatabase
        case .partialRefund: return 0
        case .periodBoundary: return periodBoundary
        case .testPurchaseExcluded: return 1
        }
    }
}
