import Foundation

/// One retention rule: a single SQL statement that deletes or redacts rows and selects how many, per counted name.
///
/// A statement names its parameters `[as_of]`, `[sandbox_cutoff]` and `[payload_cutoff]` (bound as `$n` when it runs)
/// and selects one row whose integer columns are the counts (named as in `job_run.counts`).
public struct RetentionRule: Sendable {
    /// The audit_log action (`delete`, `expire`, `redact`).
    public let action: String
    /// The audit_log entity: the table the rule touches first.
    public let entity: String
    /// The counts the statement selects, in order.
    public let counts: [String]
    /// The statement.
    public let sql: String

    /// The statement with its named parameters bound as `$1…$n`, and the values in that order.
    func bound(asOf: Date, sandboxCutoff: Date, payloadCutoff: Date) -> (String, [Date]) {
        var sql = self.sql
        var values: [Date] = []
        for (name, value) in [("[as_of]", asOf), ("[sandbox_cutoff]", sandboxCutoff), ("[payload_cutoff]", payloadCutoff)]
        where sql.contains(name) {
            values.append(value)
            sql = sql.replacingOccurrences(of: name, with: "$\(values.count)::timestamptz")
        }
        return (sql, values)
    }
}
