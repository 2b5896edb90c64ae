import Foundation
import JobKit
import Postgres

/// The report files that read only the history, none of the run's filled tables (`report_run_*`), computed in a second
/// session on a thread of their own while the job's session fills the shared tables (`SharedReportTables`), so the two
/// overlap. The second session imports the job's snapshot (`pg_export_snapshot`, `SET TRANSACTION SNAPSHOT`) and is
/// read-only from its start: every report of a run still reads one snapshot. Their rows are held whole until the job
/// writes them, in print order (Reports/README.md, "Cost").
final class HistoryReports: @unchecked Sendable {
    /// One report's rows and the seconds its query took in the second session.
    struct Computed: Sendable {
        let table: ReportTable
        let seconds: TimeInterval
    }

    private let reports: [(ReportDefinition, String)]
    private let settings: ReportSettings
    private let snapshot: String
    private let connection: PostgresConnection
    private let condition = NSCondition()
    private var finished = false
    private var computed: [String: Computed] = [:]
    private var failure: (any Error)?
    /// Whether the second session also computes the history part of the month digest (`report_month_history`).
    private let digestsHistory: Bool
    /// Set once the month history is computed (or the session failed before it).
    private var historyDone = false
    /// `report_month_history`'s rows as one jsonb array (text), what `report_month_inputs`' fifth argument takes.
    private var monthHistoryRows: String?
    /// The second session's seconds, from its start to its last report.
    private(set) var seconds: TimeInterval = 0
    /// The seconds the month history took in the second session (nil until it is computed, or when it is not).
    private(set) var monthHistorySeconds: TimeInterval?
    /// Whether the second session also computes what a run that recomputes every span stores beside the spans and
    /// trials: the span digests (`report_span_input`), after its files.
    private let digestsSpans: Bool
    /// `report_span_input`'s rows as a binary COPY stream in a file, once computed.
    private var spanDigestRows: SpillFile?
    /// The per-subscription facts a report of the second session reads (`SubscriptionFacts`), which it then fills.
    private var filledFacts: [SubscriptionFacts] { SubscriptionFacts.read(by: reports) }
    /// The per-subscription facts the second session computed (`SubscriptionFacts.fill`), once it ended.
    private var computedFacts: [SubscriptionFacts.Computed] = []
    /// The seconds filling each kind of the run's per-subscription facts took in the second session, by kind name.
    private(set) var factsSeconds: [(String, TimeInterval)] = []
    /// Whether the job's session asked for kpis' money rows (`report_kpi_money`), which this session computes from the
    /// paid counts and refund facts it fills for refunds (when it fills both).
    private let computesMoney: Bool
    /// Set once the money rows are computed, or will not be (or the session failed before them).
    private var moneyDone = false
    /// `report_kpi_money`'s rows as one jsonb array (text); nil when not computed.
    private var moneyRows: String?
    /// Whether a report of the second session reads the run's paid counts (`PaidCounts`), which it then fills.
    private var fillsPaidCounts: Bool { reports.contains { $0.1.contains(PaidCounts.relation) } }
    /// The paid counts' row part the second session filled (`PaidCounts.fill`, a jsonb array as text), once it ended.
    private var filledPaidCounts: String?
    /// The seconds filling the run's paid counts took in the second session (nil when it filled none).
    private(set) var paidCountsSeconds: TimeInterval?
    /// Whether a report of the second session reads the run's price-change facts (`PriceChangeFacts`), which it then
    /// fills.
    private var fillsPriceChangeFacts: Bool {
        reports.contains { report in PriceChangeFacts.relations.contains { report.1.contains($0) } }
    }
    /// The price-change facts the second session computed (`PriceChangeFacts.fill`), once it ended.
    private var computedPriceChangeFacts: PriceChangeFacts.Computed?
    /// The seconds filling the run's price-change facts took in the second session (nil when it filled none).
    private(set) var priceChangeFactsSeconds: TimeInterval?
    /// The relations the second session fills itself before its reports read them; the `report_run_*` names a report
    /// may read and still run there.
    private static let filledHere = SubscriptionFacts.all.map(\.relation) + [PaidCounts.relation] + PriceChangeFacts.relations

    /// True when `sql` reads none of the run's filled tables, so it may run in the second session: it names no
    /// `report_run_*` relation but those the second session fills itself (`filledHere`: the per-subscription facts,
    /// the paid counts, the price-change facts), and `definition` stores no months (those read the run's tables,
    /// `ReportReuse`). A file that reached them some other way would still be right there, only slower: the second
    /// session has none of the run's temporary tables, and the `report_run_*` functions compute their rows from the
    /// history.
    static func readsOnlyHistory(_ definition: ReportDefinition, sql: String) -> Bool {
        definition.reuse == nil
            && !filledHere.reduce(sql) { $0.replacingOccurrences(of: $1, with: "") }.contains("report_run_")
    }

    private init(reports: [(ReportDefinition, String)], settings: ReportSettings, snapshot: String, connection: PostgresConnection,
                 digestsHistory: Bool, digestsSpans: Bool, money: Bool) {
        self.reports = reports
        computesMoney = money
        self.settings = settings
        self.snapshot = snapshot
        self.connection = connection
        self.digestsHistory = digestsHistory
        self.digestsSpans = digestsSpans
    }

    /// Exports the snapshot of `database`'s open REPEATABLE READ transaction and starts computing `reports` on a new
    /// connection (`connect`) that imports it, first the history part of the month digest when `monthHistory` (the run
    /// stores months: `monthHistory()` hands it over), and, when `spanDigests` (a run that recomputes every span),
    /// last the span digests, which it needs only to store them (`spanDigests()`), and, when `money`, kpis' money rows
    /// once it filled refunds' paid counts and facts (`kpiMoney()`); nil, and nothing started, when there is nothing
    /// to compute.
    static func start(_ reports: [(ReportDefinition, String)], monthHistory: Bool = false, spanDigests: Bool = false, money: Bool = false,
                      settings: ReportSettings, database: PostgresConnection,
                      connect: () throws -> PostgresConnection) throws -> HistoryReports? {
        guard !reports.isEmpty || monthHistory || spanDigests else { return nil }
        let snapshot = try SnapshotSession.export(database, for: "history reports")
        let connection = try SnapshotSession.connect(connect, for: "history reports")
        let started = HistoryReports(reports: reports, settings: settings, snapshot: snapshot, connection: connection,
                                     digestsHistory: monthHistory, digestsSpans: spanDigests, money: money)
        let thread = Thread { started.run() }
        thread.name = "history-reports"
        thread.start()
        return started
    }

    /// Waits for the second session to end and returns each report's rows by name; its error, if it failed.
    func wait() throws -> [String: Computed] {
        condition.lock()
        while !finished { condition.wait() }
        let (computed, failure) = (self.computed, self.failure)
        condition.unlock()
        if let failure { throw failure }
        return computed
    }

    /// Whether the second session computes report `name` (`readsOnlyHistory`, chosen at `start`).
    func computes(_ name: String) -> Bool {
        reports.contains { $0.0.name == name }
    }

    /// The rows of report `name` when the second session computes it, waiting for the session to end the first time
    /// one is asked for (`waited` says for how long); nil at once for a report it does not compute, so the job's session
    /// writes its own files while the second session still works. The second session's error, if it failed.
    func result(_ name: String) throws -> Computed? {
        guard computes(name) else { return nil }
        if waited == nil {
            let began = Date()
            _ = try wait()
            waited = Date().timeIntervalSince(began)
        }
        return try wait()[name]
    }

    /// Waits for the second session to end and returns the per-subscription facts it computed, for the store (a kind
    /// none of its reports reads is absent). The second session's error, if it failed.
    func subscriptionFacts() throws -> [SubscriptionFacts.Computed] {
        _ = try wait()
        condition.lock()
        defer { condition.unlock() }
        return computedFacts
    }

    /// Waits for the second session to end and returns the price-change facts it computed, for the store (nil when none
    /// of its reports reads them). The second session's error, if it failed.
    func priceChangeFacts() throws -> PriceChangeFacts.Computed? {
        _ = try wait()
        condition.lock()
        defer { condition.unlock() }
        return computedPriceChangeFacts
    }

    /// Waits for the second session to end and returns the paid counts' row part it filled (a jsonb array as text), for
    /// the store (nil when none of its reports reads them). The second session's error, if it failed.
    func paidCounts() throws -> String? {
        _ = try wait()
        condition.lock()
        defer { condition.unlock() }
        return filledPaidCounts
    }

    /// The seconds the job's session waited for the second session (nil until `result` first waited).
    private(set) var waited: TimeInterval?

    /// Waits for the month history (`report_month_history` of the run's as-of and basis, a jsonb array as text); nil
    /// when this session does not compute it. The second session's error, if it failed before it.
    func monthHistory() throws -> String? {
        guard digestsHistory else { return nil }
        return try waitFor({ historyDone }, then: { monthHistoryRows })
    }

    /// Waits for kpis' money rows (`report_kpi_money` of the run's as-of and basis, a jsonb array as text, for
    /// `fillKPIMoney`); nil when this session does not compute them. The second session's error, if it failed before.
    func kpiMoney() throws -> String? {
        guard computesMoney else { return nil }
        return try waitFor({ moneyDone }, then: { moneyRows })
    }

    /// Fills the job's temporary `report_kpi_money_run` in `database`'s transaction (still read-write) with `rows`
    /// (`kpiMoney()`) and marks it filled, so kpis reads them instead of the history; nothing when `rows` is nil.
    static func fillKPIMoney(_ rows: String?, settings: ReportSettings, database: PostgresConnection) throws {
        guard let rows else { return }
        let all = ReportQuery.parameters(settings)
        try database.execute("CREATE TEMP TABLE report_kpi_money_run (LIKE public.report_kpi_money_run) ON COMMIT DROP")
        try database.execute("""
            INSERT INTO pg_temp.report_kpi_money_run
            SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(month date, provider text, paid numeric, refunded bigint, chargebacks bigint)
            """, [rows])
        try database.execute("INSERT INTO pg_temp.report_run_filled (relation, as_of, basis) VALUES ('kpi_money', $1, $2)",
                             [all[0], all[4]])
    }

    /// Waits, under the lock, until `done` holds, and returns `value`; the second session's error, if it failed.
    private func waitFor<T>(_ done: () -> Bool, then value: () -> T) throws -> T {
        condition.lock()
        while !done() { condition.wait() }
        let (result, failure) = (value(), self.failure)
        condition.unlock()
        if let failure { throw failure }
        return result
    }

    /// Waits for the second session to end and returns the span digests it computed (`report_span_input` of the
    /// run's as-of and basis as a binary COPY stream, for `StoredSpans.loadDigests`); nil when it does not compute
    /// them. The second session's error, if it failed.
    func spanDigests() throws -> SpillFile? {
        guard digestsSpans else { return nil }
        _ = try wait()
        condition.lock()
        defer { condition.unlock() }
        return spanDigestRows
    }

    private func run() {
        let started = Date()
        var computed: [String: Computed] = [:]
        var failure: (any Error)?
        var facts: [SubscriptionFacts.Computed] = []
        var paidCounts: String?
        var priceChangeFacts: PriceChangeFacts.Computed?
        do {
            try StoredMonths.failing("history reports") {
                if !filledFacts.isEmpty || fillsPaidCounts || fillsPriceChangeFacts {
                    try connection.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled)")
                }
                for kind in filledFacts { try kind.prepare(connection) }
                if fillsPaidCounts { try PaidCounts.prepare(connection) }
                if fillsPriceChangeFacts { try PriceChangeFacts.prepare(connection) }
                try SnapshotSession.begin(connection, snapshot: snapshot)
            }
            // What changed since the stores it reads beside the span set, once for them all.
            let changes = digestsHistory || !filledFacts.isEmpty || fillsPaidCounts || fillsPriceChangeFacts
                ? try StoredMonths.failing("stored months") { try StoreChanges.read(connection, settings: settings) } : nil
            if digestsHistory {
                let began = Date()
                let history = try StoredMonths.failing("stored months") {
                    try MonthHistory.rows(connection, settings: settings, changes: changes)
                }
                condition.lock()
                monthHistoryRows = history
                monthHistorySeconds = Date().timeIntervalSince(began)
                historyDone = true
                condition.broadcast()
                condition.unlock()
            }
            (facts, factsSeconds) = try SubscriptionFacts.fill(filledFacts, connection, settings: settings, changes: changes)
            if fillsPaidCounts {
                let began = Date()
                paidCounts = try StoredMonths.failing("paid counts") {
                    try PaidCounts.fill(connection, settings: settings, changes: changes)
                }
                paidCountsSeconds = Date().timeIntervalSince(began)
            }
            if computesMoney {
                // (read from what the fills above left: both, or the history would be read again; before the
                // price-change facts, the longest fill of a --full run, so the job never waits for it)
                let rows = filledFacts.contains(where: { $0.name == SubscriptionFacts.refunds.name }) && fillsPaidCounts
                    ? try StoredMonths.failing("kpis money") {
                        try connection.query("SELECT COALESCE(jsonb_agg(m), '[]')::text FROM report_kpi_money($1, $2) m",
                                             [ReportQuery.parameters(settings)[0], settings.basis.rawValue]).textRows().first?.first ?? nil
                    } : nil
                condition.lock()
                moneyRows = rows
                moneyDone = true
                condition.broadcast()
                condition.unlock()
            }
            if fillsPriceChangeFacts {
                let began = Date()
                priceChangeFacts = try StoredMonths.failing("price-change facts") {
                    try PriceChangeFacts.fill(connection, settings: settings, changes: changes)
                }
                priceChangeFactsSeconds = Date().timeIntervalSince(began)
            }
            for (definition, sql) in reports {
                let began = Date()
                let table = try ReportQuery.run(definition.name, sql: sql, settings: settings, database: connection)
                computed[definition.name] = Computed(table: table, seconds: Date().timeIntervalSince(began))
            }
            if digestsSpans {
                let rows = try SpanStreams.digests(connection, settings: settings)
                condition.lock()
                spanDigestRows = rows
                condition.unlock()
            }
            _ = try StoredMonths.failing("history reports") { try connection.execute("COMMIT") }
        } catch {
            failure = error
        }
        connection.close()
        condition.lock()
        self.computed = computed
        self.computedFacts = facts
        self.filledPaidCounts = paidCounts
        self.computedPriceChangeFacts = priceChangeFacts
        self.failure = failure
        seconds = Date().timeIntervalSince(started)
        finished = true
        historyDone = true
        moneyDone = true
        condition.broadcast()
        condition.unlock()
    }
}
