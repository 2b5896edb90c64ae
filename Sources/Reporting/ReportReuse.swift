/// How a report's complete months may be stored and reused by a later `build-reports` run (Reports/README.md,
/// "Incremental runs"). A declaration, not code: the job stores and reuses any report that makes it.
public enum ReportReuse: Sendable, Equatable {
    /// The rows come in order of the named month column (`YYYY-MM`), and a month's rows read nothing but the run's
    /// snapshots, contributions, movements and subscriber states (`report_run_*`) up to that month, `fx_rate` up to it,
    /// `plan`, the history rows read that are effective up to the month's end (only the columns
    /// `report_month_history` hashes) and whether a subscription is excluded (test purchase, sandbox, a test row);
    /// and with the first reported month moved later, a month's rows do not change. Such a month's rows are a function
    /// of `report_month_inputs` (migrations 0027, 0030, 0040), so they are reused while its digest and the SQL are
    /// unchanged.
    case monthEnd(column: String)

    /// The month column.
    public var column: String {
        switch self { case .monthEnd(let column): column }
    }
}
