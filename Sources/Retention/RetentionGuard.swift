/// What retention must never touch: rows effective in a closed accounting period.
///
/// `protectedPeriods` is a query selecting `start_at, end_at` (timestamptz, end exclusive) for every closed period.
/// A sandbox or test subscription with any billing_transaction effective inside one is kept, whatever its age.
/// Redaction never changes a normalised column, so it needs no guard: every report reads normalised columns only.
/// The job uses `closedPeriods`: the ranges `close-period` locked (`period_lock`) and has not reopened.
public struct RetentionGuard: Sendable {
    /// The query selecting the protected periods.
    public let protectedPeriods: String

    /// A guard over the given query.
    public init(protectedPeriods: String) { self.protectedPeriods = protectedPeriods }

    /// No period is protected (tests of the rules alone).
    public static let noClosedPeriods = RetentionGuard(
        protectedPeriods: "SELECT NULL::timestamptz AS start_at, NULL::timestamptz AS end_at WHERE false")

    /// Every period `close-period` locked and nobody reopened, per provider's locked range.
    public static let closedPeriods = RetentionGuard(protectedPeriods: """
        SELECT l.starts_at AS start_at, l.ends_at AS end_at
        FROM period_lock l JOIN period_close c ON c.id = l.close_id WHERE c.reopened_at IS NULL
        """)
}
