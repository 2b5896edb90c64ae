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

    /// Cells of a month (rows whose month column names it) read what `monthEnd`'s do, but the rows are ordered by the
    /// `groups` columns (compared bytewise) first and by month within a group, and which groups exist depends on the
    /// first reported month (`cohorts`: a cohort per start month reported, a cell per later month). The SQL computes
    /// the cells of the snapshots marked `reported` only, for the groups of the run's whole range; the stored months
    /// are keyed by the first reported month as well (it is hashed with the SQL), and a run merges the stored months'
    /// cells and the computed ones into the report's order. The report is read whole (it is small).
    case monthCells(column: String, groups: [String])

    /// The month column.
    public var column: String {
        switch self {
        case .monthEnd(let column): column
        case .monthCells(let column, _): column
        }
    }

    /// The group columns of `monthCells`; nil for `monthEnd`, whose rows are in month order.
    public var groups: [String]? {
        switch self {
        case .monthEnd: nil
        case .monthCells(_, let groups): groups
        }
    }
}
