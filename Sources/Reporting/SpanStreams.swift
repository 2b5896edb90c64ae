import Foundation
import Postgres

/// What a `--full` run's second session computes for the job's stored spans (`StoredSpans`, `HistoryReports`): the
/// span digests of the run's as-of instant and basis, as a binary COPY stream kept in a file until the job's session
/// loads it.
enum SpanStreams {
    /// The span digests (`report_span_input` of the run's as-of and basis), computed on `connection` (the second
    /// session, on the run's snapshot), for `StoredSpans.loadDigests`.
    static func digests(_ connection: PostgresConnection, settings: ReportSettings) throws -> SpillFile {
        // COPY takes no parameters: the as-of instant and the basis as constants. Kept in a file until the job loads
        // them (45 MB of span digests at a million subscriptions).
        let asOf = SQLLiteral.quoted(PostgresTimestamp.format(settings.asOf)), basis = SQLLiteral.quoted(settings.basis.rawValue)
        let file = try SpillFile(purpose: "report span digests")
        try StoredMonths.failing("span digests") {
            _ = try connection.copyOutMessages("""
                COPY (SELECT * FROM report_span_input(\(asOf)::timestamptz, \(basis))) TO STDOUT (FORMAT binary)
                """) { try file.append($0) }
        }
        return file
    }
}
