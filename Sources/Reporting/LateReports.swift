import Foundation
import JobKit
import Postgres

/// The job's last files in print order, `plan_change_mix` and `cohorts` (in a night `cohorts` alone: `nightNames`),
/// computed on a session of their own while the job's session writes the files before them, so the second core is not
/// idle through the job's chain of files after the fill (Benchmarks/results.md, "Month-end and reports on a quiet
/// night"). The session imports the run's snapshot (every report of a run still reads one snapshot) and gets, from the job's session over binary `COPY`, copies of
/// the only filled tables these files read — the snapshots and the movements (`cohorts`; `plan_change_mix` reads none)
/// — and the `report_run_filled` rows of those two, so the `report_run_*` functions read the copies; any other filled
/// relation they reached would be computed from the history there (right, only slower). Their stored months are
/// replayed, moved and recorded on this session (`StoredMonths.on`) into the run's one `MonthWriter`. Their rows are
/// held whole until the job writes them, in print order: a few thousand rows (Reports/README.md, "Cost").
final class LateReports: @unchecked Sendable {
    /// The files computed here when the run has them.
    static let names: Set<String> = ["plan_change_mix", "cohorts"]
    /// Those of `names` computed here in a night (a run computing at most the last month of every one of them): then
    /// `plan_change_mix` (2.5 s at 1M subscriptions) evens the job's chain with `cohorts` (8 s) here, where beside it
    /// it made the late chain the run's longest (Benchmarks/results.md, "The night's chains evened").
    static let nightNames: Set<String> = ["cohorts"]
    /// The filled relations copied from the job's session (`SharedReportTables.relations`), each `report_<r>_run`.
    static let copied = ["snapshot", "movement"]

    /// One file's rows, the seconds its query took here and what it adds to the summary.
    struct Computed {
        let computed: HistoryReports.Computed
        let tally: ReportTally
    }

    private let reports: [(ReportDefinition, String)]
    /// The reports this session computes, chosen at the hand-over (`nightNames` in a night); nil before it.
    private var computing: [(ReportDefinition, String)]?
    private let settings: ReportSettings
    private let snapshot: String
    private let connection: PostgresConnection
    private let condition = NSCondition()
    /// Set once the session has imported the snapshot and created its tables (or failed to).
    private var ready = false
    /// Set when the job has copied the tables over (`handOver`): the session computes its files.
    private var handedOver = false
    /// The run's stored months bound to this session (nil: the run stores none).
    private var stored: StoredMonths?
    /// Set when the run ends without handing over (`stop`): the session ends without computing.
    private var stopped = false
    private var finished = false
    private var computed: [String: Computed] = [:]
    private var failure: (any Error)?

    private init(reports: [(ReportDefinition, String)], settings: ReportSettings, snapshot: String, connection: PostgresConnection) {
        self.reports = reports
        self.settings = settings
        self.snapshot = snapshot
        self.connection = connection
    }

    /// Exports the snapshot of `database`'s open REPEATABLE READ transaction and starts a session (`connect`) that
    /// creates the copies' temporary tables and imports it, then waits for `handOver`; nil, and nothing started, when
    /// none of `present` is one of `names`.
    static func start(_ present: [(ReportDefinition, String)], settings: ReportSettings, database: PostgresConnection,
                      connect: () throws -> PostgresConnection) throws -> LateReports? {
        // A file that stores no months and reads only the history is the second session's (`readsOnlyHistory`): never
        // computed in both.
        let reports = present.filter { names.contains($0.0.name) && $0.0.reuse != nil }
        guard !reports.isEmpty else { return nil }
        let snapshot = try SnapshotSession.export(database, for: "late reports")
        let connection = try SnapshotSession.connect(connect, for: "late reports")
        let started = LateReports(reports: reports, settings: settings, snapshot: snapshot, connection: connection)
        let thread = Thread { started.run() }
        thread.name = "late-reports"
        thread.start()
        return started
    }

    /// Copies the filled tables the late files read from `database` (the job's session, filled, its first month
    /// as the run's) into this session and lets it compute them with `stored` bound to it. Waits until the session is
    /// ready (it imported the snapshot long before, while the job filled). The session's error, if it failed.
    func handOver(from database: PostgresConnection, stored: StoredMonths?) throws {
        condition.lock()
        while !ready { condition.wait() }
        let failed = failure
        condition.unlock()
        if let failed { throw failed }
        try StoredMonths.failing("late reports: copying the filled tables") {
            let relations = Self.copied.map { "'\($0)'" }.joined(separator: ", ")
            let copies = Self.copied.map { ("pg_temp.report_\($0)_run", "SELECT * FROM pg_temp.report_\($0)_run") }
                + [("pg_temp.report_run_filled", "SELECT * FROM pg_temp.report_run_filled WHERE relation IN (\(relations))")]
            for (table, select) in copies {
                _ = try connection.copyIn("COPY \(table) FROM STDIN (FORMAT binary)") { copy in
                    _ = try database.copyOutMessages("COPY (\(select)) TO STDOUT (FORMAT binary)") { try copy.writeRaw($0) }
                }
                try connection.execute("ANALYZE \(table)")
            }
        }
        // A night: every late file computes at most the last month (none computes more).
        let night = reports.allSatisfy { stored?.plan(for: $0.0).map { $0.firstComputed >= settings.lastMonth } ?? false }
        condition.lock()
        self.stored = stored?.on(connection)
        computing = reports.filter { !night || Self.nightNames.contains($0.0.name) }
        handedOver = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the session without computing (the run failed before the hand-over) and waits for it.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// The rows of report `name` and what it adds to the summary when this session computes it, waiting for the
    /// session to end; nil at once for a report it does not compute. The session's error, if it failed.
    func result(_ name: String) throws -> Computed? {
        condition.lock()
        let chosen = (computing ?? reports).contains { $0.0.name == name }
        condition.unlock()
        guard chosen else { return nil }
        try wait()
        condition.lock()
        defer { condition.unlock() }
        return computed[name]
    }

    /// Waits for the session to end; its error, if it failed.
    func wait() throws {
        condition.lock()
        while !finished { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func run() {
        var computed: [String: Computed] = [:]
        var failure: (any Error)?
        do {
            try StoredMonths.failing("late reports") {
                // Created before the transaction: a READ ONLY one may write temporary tables but not create them.
                for relation in Self.copied {
                    try connection.execute("CREATE TEMP TABLE report_\(relation)_run (LIKE public.report_\(relation)_run)")
                }
                try connection.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled)")
                try ReusedCells.create(connection, onCommitDrop: false)
                try SnapshotSession.begin(connection, snapshot: snapshot)
            }
            condition.lock()
            ready = true
            condition.broadcast()
            while !handedOver && !stopped { condition.wait() }
            let (go, bound, chosen) = (handedOver && !stopped, stored, computing ?? [])
            condition.unlock()
            if go {
                for (definition, sql) in chosen {
                    let began = Date()
                    let tally = ReportTally()
                    var table = ReportTable(columns: [], rows: [])
                    if let read = try ReportRows.read(definition, sql: sql, settings: settings, stored: bound, database: connection,
                                                      tally: tally, whole: true, { _, _ in }) {
                        table = read
                    }
                    computed[definition.name] = Computed(computed: HistoryReports.Computed(table: table, seconds: Date().timeIntervalSince(began)),
                                                         tally: tally)
                }
            }
            _ = try StoredMonths.failing("late reports") { try connection.execute("COMMIT") }
        } catch {
            failure = error
        }
        connection.close()
        condition.lock()
        self.computed = computed
        self.failure = failure
        ready = true
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
