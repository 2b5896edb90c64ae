import Foundation
import JobKit
import Postgres

/// The job's last files in print order, `trial_conversion`, `plan_change_mix` and `cohorts`, computed on a session of
/// their own while the job's session fills the shared tables and writes the files before them, so the second core is
/// not idle through the job's chain (Benchmarks/results.md, "Month-end and reports on a quiet night", "Open spans, and
/// the late files in two steps", "Two snapshots a night"). The session imports the run's snapshot (every report of a
/// run still reads one snapshot) and gets, from the job's session over binary `COPY`, copies of the only filled tables
/// these files read, each with its `report_run_filled` row, so the `report_run_*` functions read the copies (any other
/// filled relation they reached would be computed from the history there: right, only slower). In three steps: the
/// trials as soon as the job has them (`handOverTrials`, before it places anything), when the session computes the
/// file that reads only them (`trial_conversion`); the snapshots as soon as the run knows which months each file
/// computes (`handOverSnapshots`, before the job fills the movements), when it computes the files that read no
/// movements (`plan_change_mix`); then the movements (`handOverMovements`), when it computes the others (`cohorts`).
/// Before it is ready it fills the per-subscription facts its files read (`SubscriptionFacts`: the
/// first charges of a night's `cohorts`, the plan changes of `plan_change_mix`), while the job still fills its spans. Their stored months are replayed, moved
/// and recorded on this session (`StoredMonths.on`) into the run's one `MonthWriter`. Their rows are held whole until the job writes them, in print order: a few thousand rows
/// (Reports/README.md, "Cost").
final class LateReports: @unchecked Sendable {
    /// The files computed here when the run has them.
    static let names: Set<String> = ["trial_conversion", "plan_change_mix", "cohorts"]
    /// The filled relations copied from the job's session (`SharedReportTables.relations`), each `report_<r>_run`, in
    /// the order the job hands them over (`handOverTrials`, `handOverSnapshots`, `handOverMovements`).
    static let copied = ["trial", "snapshot", "movement"]

    /// The handed-over relations a file reads: those of `copied` its SQL reads (`report_run_<r>`), and the snapshots
    /// when it stores months (its stored months are bound to the session with them).
    static func reading(_ definition: ReportDefinition, sql: String) -> Set<String> {
        Set(copied.filter { sql.contains("report_run_\($0)") }).union(definition.reuse == nil ? [] : ["snapshot"])
    }

    /// `reports` in steps: each file in the first step by whose hand-over everything it reads is there (`copied`'s
    /// order), each step with what its files read (empty steps left out).
    static func steps(_ reports: [(ReportDefinition, String)]) -> [(needed: Set<String>, files: [(ReportDefinition, String)])] {
        var left = reports
        return copied.indices.compactMap { step in
            let there = Set(copied[...step])
            let files = left.filter { reading($0.0, sql: $0.1).isSubset(of: there) }
            left.removeAll { file in files.contains { $0.0.name == file.0.name } }
            return files.isEmpty ? nil : (files.reduce(into: Set<String>()) { $0.formUnion(reading($1.0, sql: $1.1)) }, files)
        }
    }

    /// One file's rows, the seconds its query took here and what it adds to the summary.
    struct Computed {
        let computed: HistoryReports.Computed
        let tally: ReportTally
    }

    private let reports: [(ReportDefinition, String)]
    /// The session's files in the order it computes them, each step once the relations it needs are handed over: the
    /// file reading the trials once they are, the files that read no movements once the snapshots are, then the others
    /// once the movements are (empty steps left out).
    private let steps: [(needed: Set<String>, files: [(ReportDefinition, String)])]
    private let settings: ReportSettings
    private let snapshot: String
    private let connection: PostgresConnection
    private let condition = NSCondition()
    /// Set once the session has imported the snapshot, created its tables and filled its facts (or failed to).
    private var ready = false
    /// The relations the job has copied over so far (`handOverSnapshots`, `handOverMovements`).
    private var handedOver: Set<String> = []
    /// Set while the session runs a step's files on its connection: a hand-over (which copies into that connection from
    /// the job's thread) waits until it is idle again.
    private var computing = false
    /// A night's touched subscriptions (one array value) when only their trials were handed over: the session adds
    /// the other subscriptions' stored trials to its copy before its first step reads it (`addStoredTrials`).
    private var storedTrialsLeftOut: String?
    /// The run's stored months bound to this session (nil: the run stores none).
    private var stored: StoredMonths?
    /// Set when the run failed (`stop`): the session computes no further file.
    private var stopped = false
    private var finished = false
    private var computed: [String: Computed] = [:]
    private var failure: (any Error)?
    /// The per-subscription facts the session's files read (`SubscriptionFacts`: `cohorts`' first charges), which it
    /// fills before it is ready; none in a `--full` run.
    private let filledFacts: [SubscriptionFacts]
    /// What the session computed of them, for the store, and the seconds each took (once it ended).
    private var computedFacts: [SubscriptionFacts.Computed] = []
    private(set) var factsSeconds: [(String, TimeInterval)] = []

    private init(reports: [(ReportDefinition, String)], settings: ReportSettings, snapshot: String, connection: PostgresConnection) {
        self.reports = reports
        steps = Self.steps(reports)
        self.settings = settings
        self.snapshot = snapshot
        self.connection = connection
        // (a --full run reads no first charges: `cohorts` computes every cell from the history; it leaves the store to
        // the next night, which computes them all)
        filledFacts = settings.recomputeAll ? [] : SubscriptionFacts.read(by: reports)
    }

    /// Exports the snapshot of `database`'s open REPEATABLE READ transaction and starts a session (`connect`) that
    /// creates the copies' temporary tables and imports it, then waits for `handOver`; nil, and nothing started, when
    /// none of `present` is one of `names`.
    static func start(_ present: [(ReportDefinition, String)], settings: ReportSettings, database: PostgresConnection,
                      connect: () throws -> PostgresConnection) throws -> LateReports? {
        // A file that stores no months and reads only the history is the second session's (`readsOnlyHistory`): never
        // computed in both.
        let reports = present.filter { names.contains($0.0.name) && !HistoryReports.readsOnlyHistory($0.0, sql: $0.1) }
        guard !reports.isEmpty else { return nil }
        let snapshot = try SnapshotSession.export(database, for: "late reports")
        let connection = try SnapshotSession.connect(connect, for: "late reports")
        let started = LateReports(reports: reports, settings: settings, snapshot: snapshot, connection: connection)
        let thread = Thread { started.run() }
        thread.name = "late-reports"
        thread.start()
        return started
    }

    /// Hands the run's trials from `database` (the job's session, its spans and trials filled) to this session and
    /// lets it compute the file that reads only them while the job places the contributions and the states. Waits until
    /// the session is ready. With `touched` (a night's touched subscriptions, one array value: `StoredSpans.touched`)
    /// only their recomputed trials (`report_trial_recomputed`) are copied, and the session itself adds the stored
    /// trials of the others, which it reads on the same snapshot (copying all 334,000 of a 1M world's trials out of the
    /// job's session took it 0.4 s). The session's error, if it failed.
    func handOverTrials(from database: PostgresConnection, touched: String?) throws {
        try handOver("trial", from: database, rows: touched == nil ? nil : "SELECT * FROM pg_temp.report_trial_recomputed") {
            self.storedTrialsLeftOut = touched
        }
    }

    /// Copies the run's snapshots from `database` (the job's session, its snapshots filled and its stored months
    /// planned) into this session and lets it compute the files that read no movements, with `stored` bound to it,
    /// while the job fills the movements. Waits until the session is ready (it imported the snapshot while the job
    /// filled). The session's error, if it failed.
    func handOverSnapshots(from database: PostgresConnection, stored: StoredMonths?) throws {
        try handOver("snapshot", from: database) { self.stored = stored?.on(self.connection) }
    }

    /// Copies the run's movements from `database` (the job's session, its movements filled), or loads them from `file`
    /// (a binary COPY stream of the whole table), into this session and lets it compute the files that read them. After
    /// `handOverSnapshots`. The session's error, if it failed.
    func handOverMovements(from database: PostgresConnection, file: SpillFile? = nil) throws {
        try handOver("movement", from: database, file: file) {}
    }

    /// Copies `relation`'s filled table (or the `rows` of it a query gives, or loads it from `file`) and its `report_run_filled` row from
    /// `database` once the session is ready and idle (not running a step's files on its connection), then, under the lock, runs `bind` and marks the relation
    /// handed over. Nothing when none of the session's files reads it (the movements without `cohorts`: the session
    /// may have ended).
    private func handOver(_ relation: String, from database: PostgresConnection, rows: String? = nil, file: SpillFile? = nil,
                          bind: () -> Void) throws {
        guard steps.contains(where: { $0.needed.contains(relation) }) else { return }
        condition.lock()
        while !ready || (computing && failure == nil && !finished) { condition.wait() }
        let ended = finished, failedMeanwhile = failure
        condition.unlock()
        if let failedMeanwhile { throw failedMeanwhile }
        guard !ended else { throw JobError.failed("report late reports: the session ended before the \(relation) table was handed over") }
        try StoredMonths.failing("late reports: copying the filled \(relation) table") {
            let copies = [("pg_temp.report_\(relation)_run", rows ?? "SELECT * FROM pg_temp.report_\(relation)_run"),
                          ("pg_temp.report_run_filled", "SELECT * FROM pg_temp.report_run_filled WHERE relation = '\(relation)'")]
            for (index, (table, select)) in copies.enumerated() {
                if index == 0, let file {
                    try connection.copyIn(table, binaryFrom: file)
                } else {
                    _ = try connection.copyIn("COPY \(table) FROM STDIN (FORMAT binary)") { copy in
                        _ = try database.copyOutMessages("COPY (\(select)) TO STDOUT (FORMAT binary)") { try copy.writeRaw($0) }
                    }
                }
                try connection.execute("ANALYZE \(table)")
            }
        }
        condition.lock()
        bind()
        handedOver.insert(relation)
        condition.broadcast()
        condition.unlock()
    }

    /// What the session computed of its facts, for the store (`SubscriptionFacts`), once it has (before it is ready);
    /// none if it failed.
    func facts() -> [SubscriptionFacts.Computed] {
        condition.lock()
        defer { condition.unlock() }
        while !ready { condition.wait() }
        return computedFacts
    }

    /// Ends the session without computing any further file (the run failed) and waits for it.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// The rows of report `name` and what it adds to the summary when this session computes it, waiting until it is
    /// computed (or the session ended without it: nil); nil at once for a report it does not compute. The session's
    /// error, if it failed.
    func result(_ name: String) throws -> Computed? {
        guard reports.contains(where: { $0.0.name == name }) else { return nil }
        condition.lock()
        while computed[name] == nil && !finished { condition.wait() }
        let result = computed[name], failure = self.failure
        condition.unlock()
        if let failure { throw failure }
        return result
    }

    /// Waits for the session to end; its error, if it failed.
    func wait() throws {
        condition.lock()
        while !finished { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Adds to the handed-over trials the stored ones of every subscription but the `touched` ones (one array value),
    /// read on the run's snapshot: together the night's trials as the job's session reads them (`StoredSpans`).
    private func addStoredTrials(leavingOut touched: String) throws {
        try StoredMonths.failing("late reports: the stored trials") {
            try connection.execute("""
                INSERT INTO pg_temp.report_trial_run
                SELECT \(StoredSpans.trialColumns) FROM report_stored_trial s
                WHERE s.basis = $1 AND NOT s.subscription_id = ANY ($2::uuid[])
                """, [settings.basis.rawValue, touched])
            try connection.execute("ANALYZE pg_temp.report_trial_run")
        }
    }

    private func run() {
        var failure: (any Error)?
        do {
            try StoredMonths.failing("late reports") {
                // Created before the transaction: a READ ONLY one may write temporary tables but not create them.
                for relation in Self.copied {
                    try connection.execute("CREATE TEMP TABLE report_\(relation)_run (LIKE public.report_\(relation)_run)")
                }
                try connection.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled)")
                try ReusedCells.create(connection, onCommitDrop: false)
                for kind in filledFacts { try kind.prepare(connection) }
                try SnapshotSession.begin(connection, snapshot: snapshot)
            }
            // Before the session is ready (a hand-over waits for it): while the job's session still fills its spans.
            if !filledFacts.isEmpty {
                let changes = try StoredMonths.failing("stored months") { try StoreChanges.read(connection, settings: settings) }
                (computedFacts, factsSeconds) = try SubscriptionFacts.fill(filledFacts, connection, settings: settings, changes: changes)
            }
            condition.lock()
            ready = true
            condition.broadcast()
            condition.unlock()
            var trialsAdded = false
            for step in steps {
                condition.lock()
                while !step.needed.isSubset(of: handedOver) && !stopped { condition.wait() }
                let (go, bound, trialsLeftOut) = (!stopped, stored, storedTrialsLeftOut)
                computing = go
                condition.unlock()
                guard go else { break }
                defer {
                    condition.lock()
                    computing = false
                    condition.broadcast()
                    condition.unlock()
                }
                // (once, before the first step that reads the trials)
                if step.needed.contains("trial"), !trialsAdded, let touched = trialsLeftOut {
                    try addStoredTrials(leavingOut: touched)
                    trialsAdded = true
                }
                for (definition, sql) in step.files {
                    let began = Date()
                    let tally = ReportTally()
                    var table = ReportTable(columns: [], rows: [])
                    if let read = try ReportRows.read(definition, sql: sql, settings: settings, stored: bound, database: connection,
                                                      tally: tally, whole: true, { _, _ in }) {
                        table = read
                    }
                    let result = Computed(computed: HistoryReports.Computed(table: table, seconds: Date().timeIntervalSince(began)),
                                          tally: tally)
                    condition.lock()
                    computed[definition.name] = result
                    condition.broadcast()
                    condition.unlock()
                }
            }
            _ = try StoredMonths.failing("late reports") { try connection.execute("COMMIT") }
        } catch {
            failure = error
        }
        connection.close()
        condition.lock()
        self.failure = failure
        ready = true
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
