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
    /// the store (2M of 12.4M spans at 1M subscriptions). Otherwise `changed` is applied to the open spans too (`Change`), and when the wanted instant
    /// is later (the months moved on) the rows that end by it are deleted. All by DELETE and INSERT: a run reading an
    /// older snapshot sees the open spans and the store of one moment.
    static func keep(_ db: PostgresConnection, basis: String, wanted: String?, changed: Change?,
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
        try changed.apply(db, to: "report_stored_span_open", basis: basis, columns: columns, openAfter: kept)
        if kept != wanted {
            _ = try db.execute("DELETE FROM report_stored_span_open WHERE basis = $1 AND to_at <= $2::timestamptz", [basis, wanted])
        }
        return wanted
    }

    /// How a run changes a basis's stored spans, and the same way its open spans: every span of some subscriptions
    /// replaced, or only the spans that differ from the stored ones.
    enum Change {
        /// Every stored span of the subscriptions `ids` (one array value; the run's `report_span_changed` lists them)
        /// deleted, and their spans in the run's table `spans` inserted.
        case replaced(ids: String, spans: String)
        /// Of the subscriptions `ids` (one array value), each span of the run's `report_span_difference` (migration 0071):
        /// its stored copies deleted, and as many copies inserted as the run recomputed.
        case differing(ids: String)

        /// Applies the change to `table` (the store, or its open spans: then only spans open after `openAfter` are
        /// inserted) for `basis`, whose spans have `columns`, in `db`'s open transaction. The ids are bound as one array
        /// value: the planner then finds their stored rows by index (joined to a table, it guessed half the store and
        /// scanned all of it, 2.9 s of 12M spans at 1M subscriptions).
        func apply(_ db: PostgresConnection, to table: String, basis: String, columns: String, openAfter: String? = nil) throws {
            let open = openAfter == nil ? "" : " AND (s.to_at IS NULL OR s.to_at > $2::timestamptz)"
            let insertParameters: [any PostgresEncodable] = [basis] + (openAfter.map { [$0] } ?? [])
            switch self {
            case let .replaced(ids, spans):
                _ = try db.execute("DELETE FROM \(table) WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", [basis, ids])
                _ = try db.execute("""
                    INSERT INTO \(table) (basis, \(columns))
                    SELECT $1, \(columns) FROM pg_temp.\(spans) s
                    WHERE EXISTS (SELECT 1 FROM pg_temp.report_span_changed c WHERE c.subscription_id = s.subscription_id)\(open)
                    """, insertParameters)
            case let .differing(ids):
                // (every column but the subscription's compared, NULL to NULL alike, as the difference grouped them)
                let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let compared = names.filter { $0 != "subscription_id" }
                let row = { (alias: String) in "(" + compared.map { "\(alias).\($0)" }.joined(separator: ", ") + ")" }
                _ = try db.execute("""
                    DELETE FROM \(table) s USING pg_temp.report_span_difference d
                    WHERE s.basis = $1 AND s.subscription_id = ANY ($2::uuid[]) AND d.subscription_id = s.subscription_id
                      AND \(row("s")) IS NOT DISTINCT FROM \(row("d"))
                    """, [basis, ids])
                _ = try db.execute("""
                    INSERT INTO \(table) (basis, \(columns))
                    SELECT $1, \(names.map { "s.\($0)" }.joined(separator: ", "))
                    FROM pg_temp.report_span_difference s CROSS JOIN generate_series(1, s.recomputed) copy
                    WHERE true\(open)
                    """, insertParameters)
            }
        }
    }
}
