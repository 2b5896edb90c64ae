/// What retention must never touch: rows effective in a closed accounting period.
///
/// `protectedPeriods` is a query selecting `start_at, end_at` (timestamptz, end exclusive) for every closed period.
/// A sandbox or test subscription with any billing_transaction effective inside one is kept, whatever its age.
/// Redaction never changes a normalised column, so it needs no guard: every report reads normalised columns only.
/// Until the close-period job's table exists the default selects no period; wire it by replacing the default with a
/// query over that table (e.g. `SELECT period_start AS start_at, period_end AS end_at FROM <closed periods>`).
public struct RetentionGuard: Sendable {
    /// The query selecting the protected periods.
    public let protectedPeriods: String

    /// A guard over the given query.
    public init(protectedPeriods: String) { self.protectedPeriods = protectedPeriods }

    /// No closed-period table yet: no period is protected.
    public static let noClosedPeriods = RetentionGuard(
        protectedPeriods: "SELECT NULL::timestamptz AS start_at, NULL::timestamptz AS end_at WHERE false")
}
