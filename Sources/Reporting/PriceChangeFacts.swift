import Foundation
import JobKit
import Postgres

/// `price_change_churn`'s per-subscription facts stored beside the spans (migration 0059; Reports/README.md, "Stored
/// price-change facts"): the notices, the cohort memberships with their outcomes, and the peer states in the baseline's
/// slots. The second session fills the run's temporary `report_price_change_*_run` tables before the report reads them
/// — the stored facts of the subscriptions that did not change since the store and the changed ones' computed, or
/// every one computed when there is no store to read, the change set differs from the stored members' (every
/// membership) or a slot is new (every peer state) — and hands what it computed to the job, which stores it beside the
/// spans.
enum PriceChangeFacts {
    /// The functions a report names to read the run's facts: a report that does reads only the history still.
    static let relations = ["report_run_price_change_member", "report_run_price_change_peer"]

    /// One kind of fact as a run computed it: the rows (a binary COPY stream of its run table's columns), whose they
    /// are (the changed subscriptions' ids as a `uuid[]` text; nil: every subscription's), and the definition they
    /// are stored with.
    struct Part {
        let rows: SpillFile
        let subscriptions: String?
        let definition: String
    }

    /// What a run computed, and the slots its peer states are of (a jsonb array: `report_price_change_slots`).
    struct Computed {
        let notices: Part
        let members: Part
        let peers: Part
        let slots: String
    }

    /// The three kinds: run table suffix, stored table, columns in the run table's order.
    private enum Kind: String, CaseIterable {
        case notice, member, peer

        var run: String { "pg_temp.report_price_change_\(rawValue)_run" }
        var store: String { "report_stored_price_change_\(rawValue)" }
        var columns: String {
            switch self {
            case .notice:
                "subscription_id, id, provider, event_type, effective_at, amount_micros, currency_code, country_code, "
                    + "product_id, period_end_at, billing_period, billed_micros, billed_currency"
            case .member:
                "subscription_id, provider, product_id, region_code, currency_code, old_amount_micros, new_amount_micros, "
                    + "mode, was_told, start_at, aimed_at, factor, billing_period, consented, applied, churned_due_to_change, ended_at"
            case .peer:
                "window_start, provider, product_id, subscription_id, country_code, first_end_at"
            }
        }
    }

    /// Creates the second session's temporary tables (`report_run_filled` is the caller's), before its read-only
    /// transaction begins (which may write them, not create them).
    static func prepare(_ connection: PostgresConnection) throws {
        for kind in Kind.allCases {
            try connection.execute("CREATE TEMP TABLE report_price_change_\(kind.rawValue)_run (LIKE public.report_price_change_\(kind.rawValue)_run)")
            try connection.execute("CREATE TEMP TABLE report_price_change_\(kind.rawValue)_computed (LIKE public.report_price_change_\(kind.rawValue)_run)")
        }
        // (the function's row type; not run)
        try connection.execute("""
            CREATE TEMP TABLE report_price_change_fact_computed AS SELECT * FROM report_price_change_fact(NULL, NULL, NULL, NULL) WITH NO DATA
            """)
    }

    /// Fills the run's facts on `connection` (the second session, on the run's snapshot, after `prepare`) and returns
    /// those it computed (see the type's summary).
    static func fill(_ connection: PostgresConnection, settings: ReportSettings, changes: StoreChanges?) throws -> Computed {
        let asOf = ReportQuery.parameters(settings)[0], basis = settings.basis.rawValue
        let value: (String, [any PostgresEncodable]) throws -> String = { sql, parameters in
            try connection.query(sql, parameters).textRows().first?.first.flatMap { $0 } ?? ""
        }

        let noticeDefinition = try value(StoreChanges.definition(of: "report_price_change_notice"), [])
        let noticeIDs = try changes?.readable(from: Kind.notice.store, basis: basis, value: noticeDefinition, on: connection)?.ids
        try connection.execute("""
            INSERT INTO pg_temp.report_price_change_notice_computed SELECT * FROM report_price_change_notice($1, $2, $3::uuid[])
            """, [asOf, basis, noticeIDs])
        try fillRun(.notice, connection, basis: basis, ids: noticeIDs)
        try markFilled("price_change_notice", connection, asOf: asOf, basis: basis)

        // The memberships' definition: the SQL of every function they read and the change set's digest.
        let memberDefinition = try value("""
            SELECT (\(StoreChanges.definition(of: ["report_price_change_fact", "report_price_change_notice", "report_price_change"])))
                   || ':' || COALESCE((SELECT md5(string_agg(c::text, '|' ORDER BY c::text)) FROM report_price_change($1, $2) c), '')
            """, [asOf, basis])
        let peerDefinition = try value(StoreChanges.definition(of: "report_price_change_fact"), [])
        let memberIDs = try changes?.readable(from: Kind.member.store, basis: basis, value: memberDefinition, on: connection)?.ids
        guard let memberIDs else {
            try fillEvery(connection, asOf: asOf, basis: basis)
            let slots = try value("SELECT report_price_change_slots($1, $2)::text", [asOf, basis])
            return Computed(notices: try part(.notice, connection, ids: noticeIDs, definition: noticeDefinition),
                            members: try part(.member, connection, ids: nil, definition: memberDefinition),
                            peers: try part(.peer, connection, ids: nil, definition: peerDefinition), slots: slots)
        }
        try connection.execute("""
            INSERT INTO pg_temp.report_price_change_member_computed SELECT \(Kind.member.columns)
            FROM report_price_change_fact($1, $2, $3::uuid[], '[]') WHERE kind = 'member'
            """, [asOf, basis, memberIDs])
        try fillRun(.member, connection, basis: basis, ids: memberIDs)
        try markFilled("price_change_member", connection, asOf: asOf, basis: basis)

        // The peer states: the changed subscriptions' computed in the run's slots and the others' read from the store
        // when it holds every slot; every one computed otherwise.
        let slots = try value("SELECT report_price_change_slots($1, $2)::text", [asOf, basis])
        let stored = try value("""
            SELECT NOT EXISTS (
                SELECT 1 FROM \(slotRows("$3"))
                WHERE NOT EXISTS (SELECT 1 FROM report_stored_price_change_peer s
                                  WHERE s.basis = $1 AND s.definition = $2 AND s.window_start = x.window_start
                                    AND s.provider = x.provider AND s.product_id = x.product_id))
            """, [basis, peerDefinition, slots]) == "t"
        let peerIDs: String? = stored ? memberIDs : nil
        try connection.execute("""
            INSERT INTO pg_temp.report_price_change_peer_computed SELECT \(Kind.peer.columns)
            FROM report_price_change_fact($1, $2, $3::uuid[], $4::jsonb) WHERE kind = 'peer'
            """, [asOf, basis, peerIDs, slots])
        try fillRun(.peer, connection, basis: basis, ids: peerIDs, slots: slots)
        try markFilled("price_change_peer", connection, asOf: asOf, basis: basis)
        return Computed(notices: try part(.notice, connection, ids: noticeIDs, definition: noticeDefinition),
                        members: try part(.member, connection, ids: memberIDs, definition: memberDefinition),
                        peers: try part(.peer, connection, ids: peerIDs, definition: peerDefinition), slots: slots)
    }

    /// Computes every membership, and every peer state in their slots, from one pass over the history, and fills the
    /// run's tables with them.
    private static func fillEvery(_ connection: PostgresConnection, asOf: any PostgresEncodable, basis: String) throws {
        try connection.execute("""
            INSERT INTO pg_temp.report_price_change_fact_computed SELECT * FROM report_price_change_fact($1, $2, NULL, NULL)
            """, [asOf, basis])
        for kind in [Kind.member, .peer] {
            try connection.execute("""
                INSERT INTO pg_temp.report_price_change_\(kind.rawValue)_computed SELECT \(kind.columns)
                FROM pg_temp.report_price_change_fact_computed WHERE kind = $1
                """, [kind.rawValue])
            try fillRun(kind, connection, basis: basis, ids: nil)
            try markFilled("price_change_\(kind.rawValue)", connection, asOf: asOf, basis: basis)
        }
    }

    /// Fills `kind`'s run table: the computed rows, and, when they are the subscriptions `ids`' only, the stored rows of
    /// the others (for peer states, of the run's `slots` only).
    private static func fillRun(_ kind: Kind, _ connection: PostgresConnection, basis: String, ids: String?,
                                slots: String = "[]") throws {
        let computed = "SELECT * FROM pg_temp.report_price_change_\(kind.rawValue)_computed"
        guard let ids else {
            try connection.execute("INSERT INTO \(kind.run) \(computed)")
            try connection.execute("ANALYZE \(kind.run)")
            return
        }
        // (peer states of the run's slots only: a stored slot the run has not is not read)
        let inSlots = kind == .peer ? """
             AND (s.window_start, s.provider, s.product_id) IN (SELECT x.window_start, x.provider, x.product_id FROM \(slotRows("$3")))
            """ : ""
        let parameters: [any PostgresEncodable] = kind == .peer ? [basis, ids, slots] : [basis, ids]
        try connection.execute("""
            INSERT INTO \(kind.run)
            SELECT \(kind.columns) FROM \(kind.store) s WHERE s.basis = $1 AND NOT s.subscription_id = ANY ($2::uuid[])\(inSlots)
            UNION ALL \(computed)
            """, parameters)
        try connection.execute("ANALYZE \(kind.run)")
    }

    private static func markFilled(_ relation: String, _ connection: PostgresConnection, asOf: any PostgresEncodable,
                                   basis: any PostgresEncodable) throws {
        try connection.execute("INSERT INTO pg_temp.report_run_filled (relation, as_of, basis) VALUES ($1, $2, $3)",
                               [relation, asOf, basis])
    }

    /// What to store of `kind`: the computed rows when they are the subscriptions `ids`' only, the whole run table
    /// otherwise (the computed rows, or, for peer states, those computed at once for every subscription).
    private static func part(_ kind: Kind, _ connection: PostgresConnection, ids: String?, definition: String) throws -> Part {
        let file = try SpillFile(purpose: "report price-change \(kind.rawValue)s")
        let source = ids == nil ? kind.run : "pg_temp.report_price_change_\(kind.rawValue)_computed"
        _ = try connection.copyOutMessages("COPY \(source) TO STDOUT (FORMAT binary)") { try file.append($0) }
        return Part(rows: file, subscriptions: ids, definition: definition)
    }

    /// Stores `computed` as the basis's facts in `db`'s transaction that stores the span set with this run's as-of
    /// instant and snapshot: per kind, the computed subscriptions' replaced, or every one when it computed all; peer
    /// states of slots the run has not, deleted. With `computed` nil (the set's are unknown, or the run computed no
    /// facts) only deletes the basis's.
    static func save(_ db: PostgresConnection, basis: String, computed: Computed?) throws {
        guard let computed else {
            for kind in Kind.allCases { _ = try db.execute("DELETE FROM \(kind.store) WHERE basis = $1", [basis]) }
            return
        }
        for (kind, part) in [(Kind.notice, computed.notices), (.member, computed.members), (.peer, computed.peers)] {
            if let ids = part.subscriptions {
                _ = try db.execute("DELETE FROM \(kind.store) WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", [basis, ids])
            } else {
                _ = try db.execute("DELETE FROM \(kind.store) WHERE basis = $1", [basis])
            }
            let saved = "report_price_change_\(kind.rawValue)_saved"
            _ = try db.execute("CREATE TEMP TABLE \(saved) (LIKE public.report_price_change_\(kind.rawValue)_run) ON COMMIT DROP")
            try db.copyIn("pg_temp." + saved, binaryFrom: part.rows)
            _ = try db.execute("""
                INSERT INTO \(kind.store) (basis, \(kind.columns), definition)
                SELECT $1, \(kind.columns), $2 FROM pg_temp.\(saved)
                """, [basis, part.definition])
        }
        _ = try db.execute("""
            DELETE FROM report_stored_price_change_peer s
            WHERE s.basis = $1 AND (s.window_start, s.provider, s.product_id) NOT IN (
                SELECT x.window_start, x.provider, x.product_id FROM \(slotRows("$2")))
            """, [basis, computed.slots])
    }

    /// The slots of the jsonb array bound as `parameter` (`report_price_change_slots`' shape) as rows `x`.
    private static func slotRows(_ parameter: String) -> String {
        "jsonb_to_recordset(\(parameter)::jsonb) AS x(window_start timestamptz, provider text, product_id text)"
    }
}
