import Foundation
import JobKit
import Postgres
@testable import Reporting
import TestSupport
import Testing

/// The report files that read only the history run in a second session, concurrently with the shared fill, and read
/// the job's own snapshot (imported), not one of their own; the files that read the run's tables run in the job's
/// session.
@Suite(.serialized) struct HistorySessionTests {
    /// The five parameters, then what the session saw: its snapshot and its backend.
    static func probe(from: String = "") -> String {
        """
        SELECT $1::timestamptz AS a, $2::timestamptz AS b, $3::timestamptz AS c, $4::text AS d, $5::text AS e,
               pg_current_snapshot()::text AS seen_snapshot, pg_backend_pid()::text AS seen_backend
        \(from)
        """
    }

    @Test func aHistoryFileRunsInASecondSessionOnTheJobsSnapshot() throws {
        let harness = try ReportingHarness("history_session")
        let history = ReportDefinition(name: "history_probe", sheet: "History probe", summary: "test: reads only the history", required: true)
        let run = ReportDefinition(name: "run_probe", sheet: "Run probe", summary: "test: reads the run's tables", required: true)
        let sql = try harness.sqlFolder("sql", extra: [
            "history_probe.sql": Self.probe(),
            "run_probe.sql": Self.probe(from: "FROM (SELECT count(*) FROM report_run_snapshot($1, $2, $3, $5)) s"),
        ])
        #expect(HistoryReports.readsOnlyHistory(history, sql: Self.probe()))
        #expect(!HistoryReports.readsOnlyHistory(run, sql: Self.probe(from: "FROM report_run_snapshot($1, $2, $3, $5)")))
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path, "--format", "csv"],
                                              catalogue: ReportCatalogue.standard + [history, run])
        #expect(code == .succeeded, "\(summary)")
        #expect((summary["seconds_history_session"] as? String).flatMap(Double.init) != nil, "\(summary)")
        let files = try ReportingHarness.files(out)
        let seen = { (name: String) throws -> [String] in
            let lines = String(decoding: try #require(files[name + ".csv"]), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            #expect(lines.count == 2, "\(name): \(lines)")
            return lines.last.map { $0.split(separator: ",", omittingEmptySubsequences: false).suffix(2).map(String.init) } ?? []
        }
        let (inHistory, inRun) = (try seen("history_probe"), try seen("run_probe"))
        #expect(inHistory.count == 2 && inRun.count == 2)
        // Another backend, and the same snapshot: the job's transaction writes its temporary tables (it has a
        // transaction id its own snapshot does not list), so a snapshot of the second session's own would list it as
        // running and differ.
        #expect(inHistory.last != inRun.last, "two sessions: \(inHistory) \(inRun)")
        #expect(inHistory.first == inRun.first, "one snapshot: \(inHistory) \(inRun)")
    }

    @Test func theSecondSessionReadsTheExportedSnapshotNotOneOfItsOwn() throws {
        let (configuration, job) = try TestDatabase.migrated("reporting_history_snapshot")
        defer { job.close() }
        let other = try PostgresConnection(configuration: configuration)
        defer { other.close() }
        try job.execute("CREATE TABLE history_probe_row (n integer)")
        try job.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        #expect(try job.query("SELECT count(*)::text FROM history_probe_row").textRows() == [["0"]], "the job's snapshot, taken")
        try other.execute("INSERT INTO history_probe_row VALUES (1)")
        let settings = ReportSettings(asOf: Date(timeIntervalSince1970: 1_790_000_000), firstMonth: try #require(ReportMonth(text: "2026-01")),
                                      lastMonth: try #require(ReportMonth(text: "2026-03")), currency: "USD", basis: .corrected,
                                      outputFolder: URL(fileURLWithPath: "/nonexistent"), sqlFolder: URL(fileURLWithPath: "/nonexistent"),
                                      writeCSV: true, writeXLSX: false, rawIdentifiers: true)
        let probe = ReportDefinition(name: "probe", sheet: "Probe", summary: "test: counts a table", required: true)
        let sql = Self.probe().replacingOccurrences(of: "pg_current_snapshot()::text AS seen_snapshot",
                                                    with: "(SELECT count(*) FROM history_probe_row)::text AS seen_rows")
        let started = try #require(try HistoryReports.start([(probe, sql)], settings: settings, database: job,
                                                            connect: { try PostgresConnection(configuration: configuration) }))
        let rows = try #require(try started.wait()["probe"]).table
        // The row committed after the job's snapshot is not seen: the second session read that snapshot.
        #expect(rows.index(of: "seen_rows").map { rows.rows.first?[$0] } == "0", "\(rows.rows)")
        try job.execute("COMMIT")
        #expect(try job.query("SELECT count(*)::text FROM history_probe_row").textRows() == [["1"]], "the row is there")
        #expect(try HistoryReports.start([], settings: settings, database: job, connect: { try PostgresConnection(configuration: configuration) }) == nil)
    }

    /// The job's session asks for each file in print order; for a file the second session does not compute the answer
    /// is "not mine" at once, while the second session still works, so the job writes its own files meanwhile; a file
    /// it computes is waited for.
    @Test func theJobWaitsForTheSecondSessionOnlyForItsFiles() throws {
        let (configuration, job) = try TestDatabase.migrated("reporting_history_waits")
        defer { job.close() }
        let holder = try PostgresConnection(configuration: configuration)
        defer { holder.close() }
        // The second session's file waits for this lock, so it is still running below until the lock is released.
        _ = try holder.query("SELECT pg_advisory_lock(4242)")
        try job.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        let settings = ReportSettings(asOf: Date(timeIntervalSince1970: 1_790_000_000), firstMonth: try #require(ReportMonth(text: "2026-01")),
                                      lastMonth: try #require(ReportMonth(text: "2026-03")), currency: "USD", basis: .corrected,
                                      outputFolder: URL(fileURLWithPath: "/nonexistent"), sqlFolder: URL(fileURLWithPath: "/nonexistent"),
                                      writeCSV: true, writeXLSX: false, rawIdentifiers: true)
        let probe = ReportDefinition(name: "probe", sheet: "Probe", summary: "test: waits for a lock", required: true)
        let sql = Self.probe(from: "FROM (SELECT pg_advisory_lock_shared(4242)) l")
        let started = try #require(try HistoryReports.start([(probe, sql)], settings: settings, database: job,
                                                            connect: { try PostgresConnection(configuration: configuration) }))
        // Released after a while whatever happens, so a wrong answer (waiting) ends the test instead of hanging it.
        let released = ReleaseFlag()
        nonisolated(unsafe) let holding = holder
        let release = Thread {
            Thread.sleep(forTimeInterval: 5)
            released.set()
            _ = try? holding.query("SELECT pg_advisory_unlock(4242)")
        }
        release.start()
        #expect(started.computes("probe") && !started.computes("mrr"))
        #expect(try started.result("mrr") == nil)
        #expect(!released.isSet, "the job's own file waited for the second session")
        let rows = try #require(try started.result("probe")).table
        #expect(released.isSet, "the second session's file came before its lock was released")
        #expect(rows.rows.count == 1)
        #expect(started.waited != nil)
        try job.execute("COMMIT")
    }

    /// Set once by the releasing thread.
    final class ReleaseFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }
}
