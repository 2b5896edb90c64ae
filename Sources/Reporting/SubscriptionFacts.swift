import Foundation
import JobKit
import Postgres

/// A report's per-subscription facts stored beside the spans: `grace_hold_recovery`'s failure episodes (migration
/// 0055; Reports/README.md, "Stored failure episodes"), `refunds`' refund facts (0064, "Stored refund facts"),
/// `cohorts`' first charges (0065, "Cohorts in a night") and `plan_change_mix`'s plan changes (0069, "Plan-change
/// mix"). Each kind has a per-subscription function
/// (`report_<name>(as_of, basis, subscriptions)`), the run's facts, which the session that computes the report sets
/// up (`report_<name>_run`, a temporary view: the stored facts of the subscriptions that did not change since the
/// store, read in place, and the changed ones' computed; every one computed when there is no store to read), the
/// function a report reads them through (`report_run_<name>`) and a store (`report_stored_<name>`), to which the job
/// hands what the run computed beside the spans.
struct SubscriptionFacts: Sendable {
    /// The kind's name: `report_<name>` computes it, `report_run_<name>` reads the run's.
    let name: String
    /// The function's columns, in order.
    let columns: String
    /// Whether the facts hold something of the as-of month (the first charges' `month_net`): stored facts are then read
    /// only by a run of the same as-of month (`definition(asOfMonth:)`).
    var asOfMonthBound = false

    /// The failure episodes of `grace_hold_recovery`.
    static let graceEpisodes = SubscriptionFacts(
        name: "grace_episode",
        columns: "subscription_id, failed_at, provider, country_code, entered_grace, entered_hold, close_kind, closed_at, "
            + "plan_id, currency, recovered_twelfths")
    /// The refunds, chargebacks and family revocations of `refunds`.
    static let refunds = SubscriptionFacts(
        name: "refund_fact",
        columns: "subscription_id, provider, refund_kind, store_reason, micros, refund_currency, charge_currency, "
            + "fallback_currency, refunded_key, refund_at, charge_at, other_charge_key")
    /// The earliest paid charge per currency of each subscription and its net revenue in the as-of month, for
    /// `cohorts`' start months and last month in a night (migrations 0065, 0074).
    static let firstCharges = SubscriptionFacts(name: "first_charge", columns: "subscription_id, provider, account, currency, first_at, month_net",
                                                asOfMonthBound: true)
    /// The plan changes of `plan_change_mix` (a charge whose product or billing period differs from the previous one).
    static let planChanges = SubscriptionFacts(
        name: "plan_change",
        columns: "subscription_id, provider, effective_at, product_id, billing_period, currency, twelfths, from_product, "
            + "from_period, from_twelfths")
    /// Every kind.
    static let all = [graceEpisodes, refunds, firstCharges, planChanges]

    /// The kinds `reports`' SQL reads (names their `relation`), which the session computing them fills first.
    static func read(by reports: [(ReportDefinition, String)]) -> [SubscriptionFacts] {
        all.filter { kind in reports.contains { $0.1.contains(kind.relation) } }
    }

    /// Fills each of `kinds` on `connection` (a session on the run's snapshot, each kind `prepare`d) and returns what it
    /// computed of each, with the seconds each took.
    static func fill(_ kinds: [SubscriptionFacts], _ connection: PostgresConnection, settings: ReportSettings,
                     changes: StoreChanges?) throws -> (computed: [Computed], seconds: [(String, TimeInterval)]) {
        var computed: [Computed] = [], seconds: [(String, TimeInterval)] = []
        for kind in kinds {
            let began = Date()
            computed.append(try StoredMonths.failing("\(kind.name)s") { try kind.fill(connection, settings: settings, changes: changes) })
            seconds.append((kind.name, Date().timeIntervalSince(began)))
        }
        return (computed, seconds)
    }

    /// The function a report names to read the run's facts: a report that does reads only the history still.
    var relation: String { "report_run_\(name)" }
    /// The store of the kind's facts, per basis.
    private var store: String { "report_stored_\(name)" }
    /// The query of the stored facts' definition for a run of as-of month `asOfMonth` (its first day): the digest of
    /// the function's SQL as installed (stored facts of another function are not read), and the month for a kind
    /// bound to it (the first night of a month computes every subscription's again).
    private func definition(asOfMonth: String) -> String {
        let digest = StoreChanges.definition(of: "report_\(name)")
        return asOfMonthBound ? "SELECT (\(digest)) || ' as of month ' || \(SQLLiteral.quoted(asOfMonth))" : digest
    }

    /// What a run computed of one kind: the facts as a binary COPY stream, and whose they are (the changed
    /// subscriptions' ids as a `uuid[]` text; nil: every subscription's).
    struct Computed {
        let facts: SubscriptionFacts
        let rows: SpillFile
        let subscriptions: String?
    }

    /// Creates the session's temporary relations of the kind (`report_run_filled` is the caller's), before its
    /// read-only transaction begins (which may write temporary tables, not create them): the computed facts, the
    /// subscriptions they replace, the basis whose stored facts the run reads (no row: none), and the run's facts, a
    /// view of the stored facts of that basis but the replaced subscriptions' and the computed ones (read in place: at
    /// 1M, copying the first charges' 0.8M stored rows into a table took 0.9 s of a night).
    func prepare(_ connection: PostgresConnection) throws {
        try connection.execute("CREATE TEMP TABLE report_\(name)_computed (LIKE public.report_\(name)_run)")
        try connection.execute("CREATE TEMP TABLE report_\(name)_replaced (subscription_id uuid PRIMARY KEY)")
        try connection.execute("CREATE TEMP TABLE report_\(name)_kept (basis text)")
        try connection.execute("""
            CREATE TEMP VIEW report_\(name)_run AS
            SELECT \(columns) FROM public.\(store) e JOIN pg_temp.report_\(name)_kept k ON k.basis = e.basis
            WHERE NOT EXISTS (SELECT 1 FROM pg_temp.report_\(name)_replaced r WHERE r.subscription_id = e.subscription_id)
            UNION ALL SELECT * FROM pg_temp.report_\(name)_computed
            """)
    }

    /// Fills the run's facts on `connection` (a session on the run's snapshot, after `prepare`) and returns those it
    /// computed: the `changes`' subscriptions' when there are changes to read and the basis's store is of this
    /// function, the others' read from the store; every subscription's otherwise.
    func fill(_ connection: PostgresConnection, settings: ReportSettings, changes: StoreChanges?) throws -> Computed {
        let all = ReportQuery.parameters(settings)
        let (asOf, basis) = (all[0], all[4])
        let subscriptions = try changes?.readable(from: store, basis: basis, definition: definition(asOfMonth: settings.asOfMonth.firstDayText),
                                                  on: connection)?.ids
        try connection.execute("""
            INSERT INTO pg_temp.report_\(name)_computed SELECT * FROM report_\(name)($1, $2, $3::uuid[])
            """, [asOf, basis, subscriptions])
        try connection.execute("ANALYZE pg_temp.report_\(name)_computed")
        if let subscriptions {
            try connection.execute("INSERT INTO pg_temp.report_\(name)_replaced SELECT unnest($1::uuid[])", [subscriptions])
            try connection.execute("ANALYZE pg_temp.report_\(name)_replaced")
            try connection.execute("INSERT INTO pg_temp.report_\(name)_kept (basis) VALUES ($1)", [basis])
            // (its one row known to the planner: unanalysed, it guessed thousands, and joined the stored facts to it by
            // sorting them all — 0.4 s of a 1M night's first charges)
            try connection.execute("ANALYZE pg_temp.report_\(name)_kept")
        }
        try connection.execute("""
            INSERT INTO pg_temp.report_run_filled (relation, as_of, basis) VALUES ($1, $2, $3)
            """, [name, asOf, basis])
        let file = try SpillFile(purpose: "report \(name)s")
        _ = try connection.copyOutMessages("COPY pg_temp.report_\(name)_computed TO STDOUT (FORMAT binary)") { try file.append($0) }
        return Computed(facts: self, rows: file, subscriptions: subscriptions)
    }

    /// Stores `computed` as the basis's facts of this kind in `db`'s transaction that stores the span set with this
    /// run's as-of instant and snapshot (of as-of month `asOfMonth`, its first day): the computed subscriptions'
    /// replaced, or every one when it computed all; with `computed` nil (the set's are unknown, or the run computed
    /// none of this kind) only deletes the basis's.
    func save(_ db: PostgresConnection, basis: String, asOfMonth: String, computed: Computed?) throws {
        guard let computed else {
            _ = try db.execute("DELETE FROM \(store) WHERE basis = $1", [basis])
            return
        }
        if let subscriptions = computed.subscriptions {
            _ = try db.execute("DELETE FROM \(store) WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])", [basis, subscriptions])
        } else {
            _ = try db.execute("DELETE FROM \(store) WHERE basis = $1", [basis])
        }
        _ = try db.execute("CREATE TEMP TABLE report_\(name)_saved (LIKE public.report_\(name)_run) ON COMMIT DROP")
        try db.copyIn("pg_temp.report_\(name)_saved", binaryFrom: computed.rows)
        _ = try db.execute("""
            INSERT INTO \(store) (basis, \(columns), definition)
            SELECT $1, \(columns), (\(definition(asOfMonth: asOfMonth))) FROM pg_temp.report_\(name)_saved
            """, [basis])
    }
}
