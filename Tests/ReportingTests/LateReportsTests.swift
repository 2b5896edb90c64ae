import Foundation
import JobKit
import Postgres
@testable import Reporting
import TestSupport
import Testing

/// The last files in print order (`trial_conversion`, `plan_change_mix`, `cohorts`) run in a session of their own that
/// imports the job's snapshot and reads copies of the filled tables the job's session made (`LateReports`): the trials
/// first, when the file that reads only them is computed, then the snapshots, when the file that reads no movements
/// is, then the movements.
@Suite(.serialized) struct LateReportsTests {
    /// What a session sees: its backend and snapshot, the movements as the `report_run_*` function returns them, and
    /// the rows of its own temporary table of movements (0 in a session that holds no copy).
    static let probe = """
        SELECT pg_backend_pid()::text AS seen_backend, pg_current_snapshot()::text AS seen_snapshot,
               (SELECT count(*) || ' ' || coalesce(sum(hashtext(m::text)), 0) FROM report_run_movement($1, $2, $3, $5) m) AS movements,
               (SELECT count(*)::text FROM pg_temp.report_movement_run) AS copied, $4::text AS currency
        """

    /// The harness world's last four months as of its as-of instant, raw identifiers, CSV only.
    static func settings(_ harness: ReportingHarness) -> ReportSettings {
        let last = ReportMonth(containing: harness.options.asOf)
        return ReportSettings(asOf: harness.options.asOf, firstMonth: last.advanced(by: -3), lastMonth: last, currency: "USD",
                              basis: .corrected, outputFolder: harness.folder("out"), sqlFolder: harness.folder("sql"),
                              writeCSV: true, writeXLSX: false, rawIdentifiers: true)
    }

    /// Begins the job's REPEATABLE READ transaction on `harness`' database (the caller rolls it back), starts the late
    /// session for `reports` before the fill, as the job does (it imports the snapshot while the job fills), and fills
    /// the run's shared tables.
    static func startedAndFilled(_ reports: [(ReportDefinition, String)], harness: ReportingHarness) throws -> LateReports {
        let job = harness.database
        let configuration = job.configuration
        let settings = Self.settings(harness)
        try job.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        let session = try #require(try LateReports.start(reports, settings: settings, database: job,
                                                         connect: { try PostgresConnection(configuration: configuration) }))
        let all = ReportQuery.parameters(settings)
        try SharedReportTables.fill(parameters: [all[0], all[1], all[2], all[4]], database: job)
        return session
    }

    @Test func aLateFileReadsTheJobsSnapshotAndItsFilledMovementsOnAnotherBackend() throws {
        let harness = try ReportingHarness("late_reports", subscriptions: 120, months: 4)
        let job = harness.database
        let settings = Self.settings(harness)
        let late = ReportDefinition(name: "cohorts", sheet: "Probe", summary: "test: what the late session sees", required: true,
                                    reuse: .monthEnd(column: "month"))
        defer { _ = try? job.execute("ROLLBACK") }
        let session = try Self.startedAndFilled([(late, Self.probe)], harness: harness)
        try session.handOverSnapshots(from: job, stored: nil)
        try session.handOverMovements(from: job)
        #expect(try session.result("mrr") == nil, "a file the late session does not compute")
        let seen = try #require(try session.result("cohorts")).computed.table
        let own = try ReportQuery.run("probe", sql: Self.probe, settings: settings, database: job)
        let cell = { (table: ReportTable, column: String) in table.index(of: column).flatMap { table.rows.first?[$0] } }
        #expect(cell(seen, "seen_backend") != cell(own, "seen_backend"), "another backend")
        #expect(cell(seen, "seen_snapshot") == cell(own, "seen_snapshot"), "one snapshot")
        let movements = try #require(cell(own, "movements") ?? nil)
        #expect(!movements.hasPrefix("0 "), "the world has movements: \(movements)")
        #expect(cell(seen, "movements") == cell(own, "movements"), "the same movements")
        // Read from the copy, not computed again from the history.
        #expect(cell(seen, "copied") == cell(own, "copied"), "the filled movements copied over")
        try session.wait()
    }

    /// `plan_change_mix` reads no movements: it is computed as soon as the snapshots are handed over, while the job
    /// fills the movements (it sees the copied snapshots and no movements), before the movements come.
    @Test func aFileThatReadsNoMovementsIsComputedOnceTheSnapshotsAreHandedOver() throws {
        let harness = try ReportingHarness("late_reports_snapshots", subscriptions: 120, months: 4)
        let job = harness.database
        let probe = """
            SELECT (SELECT count(*) FROM pg_temp.report_snapshot_run)::text AS snapshots,
                   (SELECT count(*) FROM pg_temp.report_movement_run)::text AS movements,
                   $1::text AS as_of, $2::text AS first_month, $3::text AS last_month, $4::text AS currency, $5::text AS basis
            """
        let mix = ReportDefinition(name: "plan_change_mix", sheet: "Probe", summary: "test", required: true, reuse: .monthEnd(column: "month"))
        defer { _ = try? job.execute("ROLLBACK") }
        let session = try Self.startedAndFilled([(mix, probe)], harness: harness)
        try session.handOverSnapshots(from: job, stored: nil)
        let seen = try #require(try session.result("plan_change_mix")).computed.table
        let cell = { (column: String) in seen.index(of: column).flatMap { seen.rows.first?[$0] } ?? nil }
        let snapshots = try job.query("SELECT count(*)::text FROM pg_temp.report_snapshot_run").textRows().first?.first ?? nil
        #expect(cell("snapshots") == snapshots && snapshots != "0", "the snapshots copied over")
        #expect(cell("movements") == "0", "computed before the movements were handed over")
        try session.handOverMovements(from: job)
        try session.wait()
    }

    /// `trial_conversion` reads only the trials: it is computed as soon as they are handed over (before the job places
    /// anything: it sees the copied trials and no snapshots), and the snapshots' step still follows.
    @Test func theFileThatReadsOnlyTheTrialsIsComputedOnceTheTrialsAreHandedOver() throws {
        let harness = try ReportingHarness("late_reports_trials", subscriptions: 120, months: 4)
        let job = harness.database
        let settings = Self.settings(harness)
        let probe = """
            SELECT (SELECT count(*) || ' ' || coalesce(sum(hashtext(t::text)), 0) FROM report_run_trial($1, $2, $3, $5) t) AS trials,
                   (SELECT count(*) FROM pg_temp.report_trial_run)::text AS copied,
                   (SELECT count(*) FROM pg_temp.report_snapshot_run)::text AS snapshots, $4::text AS currency
            """
        let trials = ReportDefinition(name: "trial_conversion", sheet: "Probe", summary: "test", required: true)
        let mix = ReportDefinition(name: "plan_change_mix", sheet: "Probe", summary: "test", required: true, reuse: .monthEnd(column: "month"))
        defer { _ = try? job.execute("ROLLBACK") }
        let session = try Self.startedAndFilled([(trials, probe), (mix, probe)], harness: harness)
        try session.handOverTrials(from: job, touched: nil)
        let seen = try #require(try session.result("trial_conversion")).computed.table
        let own = try ReportQuery.run("probe", sql: probe, settings: settings, database: job)
        let cell = { (table: ReportTable, column: String) in table.index(of: column).flatMap { table.rows.first?[$0] } ?? nil }
        let copied = try #require(cell(own, "copied"))
        #expect(copied != "0", "the world has trials")
        #expect(cell(seen, "copied") == copied && cell(seen, "trials") == cell(own, "trials"), "the filled trials copied over")
        #expect(cell(seen, "snapshots") == "0", "computed before the snapshots were handed over")
        try session.handOverSnapshots(from: job, stored: nil)
        let mixed = try #require(try session.result("plan_change_mix")).computed.table
        #expect(cell(mixed, "snapshots") != "0", "the next step once the snapshots came")
        try session.wait()
    }

    @Test func aRunThatEndsBeforeTheHandOverEndsTheLateSession() throws {
        let (configuration, job) = try TestDatabase.migrated("reporting_late_stop")
        defer { job.close() }
        let settings = ReportSettings(asOf: Date(timeIntervalSince1970: 1_790_000_000), firstMonth: try #require(ReportMonth(text: "2026-01")),
                                      lastMonth: try #require(ReportMonth(text: "2026-03")), currency: "USD", basis: .corrected,
                                      outputFolder: URL(fileURLWithPath: "/nonexistent"), sqlFolder: URL(fileURLWithPath: "/nonexistent"),
                                      writeCSV: true, writeXLSX: false, rawIdentifiers: true)
        let late = ReportDefinition(name: "cohorts", sheet: "Probe", summary: "test", required: true, reuse: .monthEnd(column: "month"))
        let other = ReportDefinition(name: "refunds", sheet: "Probe", summary: "test", required: true, reuse: .monthEnd(column: "month"))
        try job.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        #expect(try LateReports.start([(other, Self.probe)], settings: settings, database: job,
                                      connect: { try PostgresConnection(configuration: configuration) }) == nil, "no late file: no session")
        let session = try #require(try LateReports.start([(late, Self.probe)], settings: settings, database: job,
                                                         connect: { try PostgresConnection(configuration: configuration) }))
        session.stop()
        try session.wait()
        #expect(try session.result("cohorts") == nil, "nothing computed")
        try job.execute("ROLLBACK")
    }
}
