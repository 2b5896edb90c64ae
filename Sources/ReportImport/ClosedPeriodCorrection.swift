import Postgres

/// A corrected report file that would replace a file a month-end close compared: refused, because replacing it
/// would delete the staged rows the closed period's snapshot was computed from.
public struct ClosedPeriodCorrection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The corrected file's name.
    public var file: String
    /// The name of the file it would replace.
    public var replaces: String
    /// The report key both files share.
    public var reportKey: String
    /// APPLE or GOOGLE.
    public var provider: String
    /// The locked report period (Google `YYYY-MM`, Apple fiscal `reportDate`).
    public var reportPeriod: String
    /// The closed calendar month (`close-period --period`).
    public var closedMonth: String

    public var description: String {
        "\(file): not imported: it corrects \(replaces) (report \(reportKey)), which the close of \(closedMonth) compared; "
            + "\(provider) period \(reportPeriod) is locked (period_lock). Reopen it first (close-period --period \(closedMonth) "
            + "--reopen --reason …), or leave the difference to reach the next open period as a prior-period adjustment"
    }

    /// The correction error when the file `previousID` (the current file of the report being corrected) is one a
    /// close in force compared, else nil.
    static func check(file: String, previousID: Int64, reportKey: String, in database: PostgresConnection) throws -> ClosedPeriodCorrection? {
        guard let row = try database.query("""
            SELECT f.file_name, l.provider::text AS provider, l.report_period, c.period
            FROM period_lock l JOIN period_close c ON c.id = l.close_id JOIN reconciliation_run r ON r.id = l.run_id
            JOIN report_file f ON f.id = $1
            WHERE c.reopened_at IS NULL AND r.report_files @> jsonb_build_array(jsonb_build_object('id', $1::int8))
            ORDER BY c.id LIMIT 1
            """, [previousID]).first else { return nil }
        return ClosedPeriodCorrection(file: file, replaces: try row.decode(String.self, "file_name"), reportKey: reportKey,
                                      provider: try row.decode(String.self, "provider"),
                                      reportPeriod: try row.decode(String.self, "report_period"),
                                      closedMonth: try row.decode(String.self, "period"))
    }
}
