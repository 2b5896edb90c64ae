import Foundation
import JobKit
import Postgres

/// What changed since the store a run reads from (migration 0053; Reports/README.md, "Changed since the last store"):
/// the candidate subscriptions since the span set's as-of instant and snapshot, and the first month their changes
/// reach. Read by the job's span step (the candidates it digests: `StoredSpans`) and once in the second session, on
/// the same snapshot, for the stores it reads beside the span set (the month history's row part, the failure episodes).
struct StoreChanges: Sendable {
    /// The candidates' ids as one array value (PostgreSQL's text of a `uuid[]`).
    let ids: String
    /// The first month (a date) any candidate's change reaches; 'infinity' when there is none.
    let from: String

    /// The changes since the span set of the run's basis, on `connection`; nil when the run reads no store: `--full`,
    /// a set whose as-of instant and snapshot are unknown (the run that stored it was not the last to store), or a
    /// change that reaches every subscription (a TRUNCATE).
    static func read(_ connection: PostgresConnection, settings: ReportSettings) throws -> StoreChanges? {
        guard !settings.recomputeAll else { return nil }
        guard let marker = try connection.query("""
            SELECT s.as_of, s.snapshot::text FROM report_stored_span_set s WHERE s.basis = $1 AND s.snapshot IS NOT NULL
            """, [settings.basis.rawValue]).textRows().first, let sinceAsOf = marker[0], let since = marker[1] else { return nil }
        return try Self.since(connection, basis: settings.basis.rawValue, asOf: PostgresTimestamp.format(settings.asOf),
                              sinceAsOf: sinceAsOf, since: since)
    }

    /// The changes for a run of basis `basis` as of `asOf` since the store of a run as of `sinceAsOf` whose snapshot
    /// was `since` (`report_history_changed`); nil when a change reaches every subscription (a TRUNCATE).
    static func since(_ connection: PostgresConnection, basis: String, asOf: String, sinceAsOf: String,
                      since: String) throws -> StoreChanges? {
        guard let row = try connection.query("""
            SELECT bool_or(c.subscription_id IS NULL),
                   COALESCE(array_agg(DISTINCT c.subscription_id) FILTER (WHERE c.subscription_id IS NOT NULL), '{}')::text,
                   COALESCE((date_trunc('month', min(c.from_at) AT TIME ZONE 'UTC'))::date::text, 'infinity')
            FROM report_history_changed($1, $2, $3, $4::pg_snapshot) c
            """, [basis, asOf, sinceAsOf, since]).textRows().first,
              (row[0] ?? nil) != "t", let ids = row[1], let from = row[2] else { return nil }
        return StoreChanges(ids: ids, from: from)
    }

    /// The query giving the digest of `function`'s SQL as installed (every overload's, in argument-count order; one
    /// overload's is `md5` of its source): a store of its rows is read only while it is unchanged.
    static func definition(of function: String) -> String {
        definition(of: [function])
    }

    /// The query giving the digest of the SQL of `functions` as installed (by name, then argument count; one function
    /// of one overload gives `md5` of its source, as `definition(of:)` of its name does).
    static func definition(of functions: [String]) -> String {
        """
        SELECT md5(string_agg(p.prosrc, '|' ORDER BY p.proname, p.pronargs)) FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.proname IN (\(functions.map { "'\($0)'" }.joined(separator: ", ")))
        """
    }

    /// These changes when `table` holds the basis's rows of the function whose SQL digest the query `definition` gives
    /// (a store a night reads beside the span set: the month history, the failure episodes, the paid counts); nil when
    /// it holds none of them, and the run computes all of its part.
    func readable(from table: String, basis: any PostgresEncodable, definition: String, on connection: PostgresConnection) throws -> StoreChanges? {
        try readable(from: table, definition: "(\(definition))", [basis], on: connection)
    }

    /// These changes when `table` holds the basis's rows stored with the definition `value` (one computed by the run:
    /// the price-change memberships', which names the change set too); nil when it holds none of them.
    func readable(from table: String, basis: any PostgresEncodable, value: String, on connection: PostgresConnection) throws -> StoreChanges? {
        try readable(from: table, definition: "$2", [basis, value], on: connection)
    }

    private func readable(from table: String, definition: String, _ parameters: [any PostgresEncodable],
                          on connection: PostgresConnection) throws -> StoreChanges? {
        try connection.query("""
            SELECT EXISTS (SELECT 1 FROM \(table) s WHERE s.basis = $1 AND s.definition = \(definition))
            """, parameters).textRows().first?.first == "t" ? self : nil
    }
}
