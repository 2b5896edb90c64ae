import Foundation
import Postgres

/// The stored spans still open after an instant, kept a second time beside the store (migration 0063;
/// Reports/README.md, "Open spans"): `report_stored_span_open` holds exactly the basis's stored spans with no end or an
/// end after the span set's `open_after`, so a night's two placements read them instead of every stored span.
/// `StoredSpans` reads them through its view (`stores`) and keeps them in the transaction that stores the spans (`keep`).
enum OpenSpans {
    /// The instant a run keeps the open spans after: its second snapshot from the last, the first one a night of the
    /// same month places (the open month's snapshot and the one before it: `SharedReportTables.fill`); nil when the run
    /// has fewer snapshots. Read from the run's filled snapshots, as this session's text of the instant.
    static func wantedInstant(_ database: PostgresConnection) throws -> String? {
        try database.query("""
            SELECT at::text FROM pg_temp.report_snapshot_run WHERE n = (SELECT max(n) - 1 FROM pg_temp.report_snapshot_run)
            """).textRows().first?.first ?? nil
    }

    /// The parts of a night's view of the stored spans, each a table and a further condition on its rows `s`: with the
    /// open spans kept after `openAfter`, those and the stored spans that end at or before it (the same spans; a
    /// placement from that instant on contradicts the second part's condition, which the planner drops under
    /// `constraint_exclusion = on`); otherwise the store alone.
    static func stores(openAfter: String?) -> [(table: String, condition: String)] {
        guard let openAfter else { return [("report_stored_span", "")] }
        return [("report_stored_span_open", ""),
                ("report_stored_span", " AND s.to_at <= \(SQLLiteral.quoted(openAfter))::timestamptz")]
    }

    /// Keeps `report_stored_span_open` exactly the basis's stored spans open after an instant, in the storing
    /// transaction `db` once the spans (`columns`) are written, and returns that instant for the set (nil: none kept).
    /// `wanted` is the run's instant (`wantedInstant`). When the basis was replaced whole (`changed` nil), nothing was
    /// kept, or the kept instant is later than the wanted one (an earlier as-of), the open spans are written anew from
    /// the store (2M of 12.4M spans at 1M subscriptions). Otherwise the changed subscriptions' open rows (`changed.ids`,
    /// one array value) are replaced from the run's table of their spans (`changed.spans`), and when the wanted instant
    /// is later (the months moved on) the rows that end by it are deleted. All by DELETE and INSERT: a run reading an
    /// older snapshot sees the open spans and the store of one moment.
    static func keep(_ db: PostgresConnection, basis: String, wanted: String?, changed: (ids: String, spans: String)?,
                     columns: String) throws -> String? {
        guard let wanted else {
            _ = try db.execute("DELETE FROM report_stored_span_open WHERE basis = $1", [basis])
            return nil
        }
        let kept = try db.query("""
            SELECT open_after::text FROM report_stored_span_set WHERE basis = $1 AND open_after <= $2::timestamptz
            """, [basis, wanted]).textRows().first?.first ?? nil
        guard let changed, let kept else {
            _ = try db.execute("DELETE FROM report_stored_span_open WHERE basis = $1", [basis])
            _ = try db.execute("""
                INSERT INTO report_stored_span_open (basis, \(columns))
                SELECT basis, \(columns) FROM report_stored_span WHERE basis = $1 AND (to_at IS NULL OR to_at > $2::timestamptz)
                """, [basis, wanted])
            return wanted
        }
        _ = try db.execute("DELETE FROM report_stored_span_open WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])",
                           [basis, changed.ids])
        _ = try db.execute("""
            INSERT INTO report_stored_span_open (basis, \(columns))
            SELECT $1, \(columns) FROM pg_temp.\(changed.spans) s
            WHERE EXISTS (SELECT 1 FROM pg_temp.report_span_changed c WHERE c.subscription_id = s.subscription_id)
              AND (s.to_at IS NULL OR s.to_at > $2::timestamptz)
            """, [basis, kept])
        if kept != wanted {
            _ = try db.execute("DELETE FROM report_stored_span_open WHERE basis = $1 AND to_at <= $2::timestamptz", [basis, wanted])
        }
        return wanted
    }
}
