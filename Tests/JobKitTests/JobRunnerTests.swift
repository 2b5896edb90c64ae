import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// Final class so captured output can be collected from the runner's @Sendable closure.
final class OutputLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

/// The job contract end to end on the real PostgreSQL: exit codes, summary line, job_run rows, the lock.
@Suite(.serialized) struct JobRunnerTests {
    static let database = migrated("test_jobkit")

    static func environment() throws -> JobEnvironment {
        try environment(database, named: "test_jobkit")
    }

    /// The migrated test database `name`'s configuration (its connection closed).
    static func migrated(_ name: String) -> Result<PostgresConfiguration, any Error> {
        Result {
            let (configuration, connection) = try TestDatabase.migrated(name)
            connection.close()
            return configuration
        }
    }

    /// The process environment pointed at the test database `name` (created first, through `database`).
    static func environment(_ database: Result<PostgresConfiguration, any Error>, named name: String) throws -> JobEnvironment {
        _ = try database.get()
        var variables = ProcessInfo.processInfo.environment
        variables["DATABASE_URL"] = nil
        variables["PGDATABASE"] = name
        return JobEnvironment(variables)
    }

    private func run(_ definition: JobDefinition, _ arguments: [String] = []) throws -> (JobExitCode, [String: Any]) {
        let output = OutputLines()
        let code = JobRunner.run(definition, arguments: arguments + ["--log-format", "json"], environment: try Self.environment(),
                                 output: { output.append($0) })
        let line = try #require(output.lines.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (code, summary)
    }

    private func jobRun(_ id: Any?) throws -> PostgresRow {
        let db = try PostgresConnection(configuration: try Self.database.get())
        let runID = try #require(id as? Int)
        return try #require(try db.query("SELECT * FROM job_run WHERE id = $1", [runID]).first)
    }

    @Test func successPrintsOneSummaryLineAndRecordsTheRun() throws {
        let definition = JobDefinition(name: "probe-ok", summary: "test") { context in
            context.count("checked", by: 3)
            context.count("checked")
        }
        let (code, summary) = try run(definition, ["--as-of", "2026-11-29T06:00:00Z"])
        #expect(code == .succeeded)
        #expect(summary["status"] as? String == "succeeded")
        #expect(summary["as_of"] as? String == "2026-11-29T06:00:00.000000Z")
        #expect((summary["counts"] as? [String: Int]) == ["checked": 4])
        let row = try jobRun(summary["run_id"])
        #expect(try row.decode(String.self, "status") == "succeeded")
        #expect(try row.decode(PostgresJSONText.self, "counts").decode([String: Int].self) == ["checked": 4])
        #expect(try row.decode(Int32.self, "pid") == getpid())
        #expect(try row.decodeIfPresent(Date.self, "finished_at") != nil)
    }

    @Test func thrownErrorsMapToExitCodesAndAreRecorded() throws {
        let failing = JobDefinition(name: "probe-fail", summary: "test") { _ in throw JobError.failed("store unreachable") }
        let (failed, failedSummary) = try run(failing)
        #expect(failed == .failed)
        #expect(try jobRun(failedSummary["run_id"]).decode(String.self, "error") == "store unreachable")

        let breach = JobDefinition(name: "probe-breach", summary: "test") { _ in throw JobError.thresholdBreached("drift 12 > 10") }
        let (breached, breachedSummary) = try run(breach)
        #expect(breached == .thresholdBreached)
        #expect(breached.rawValue == 3)
        #expect(try jobRun(breachedSummary["run_id"]).decode(String.self, "status") == "threshold_breached")

        struct Unexpected: Error {}
        let (other, _) = try run(JobDefinition(name: "probe-other", summary: "test") { _ in throw Unexpected() })
        #expect(other.rawValue == 1)
    }

    @Test func helpVersionAndUsage() throws {
        let definition = JobDefinition(name: "probe-help", summary: "does a thing", options: [.flag("status", help: "show status")]) { _ in }
        let output = OutputLines()
        let environment = JobEnvironment([:])
        #expect(JobRunner.run(definition, arguments: ["--help"], environment: environment, output: { output.append($0) }) == .succeeded)
        #expect(output.lines.joined().contains("--status"))
        #expect(output.lines.joined().contains("--dry-run"))
        #expect(JobRunner.run(definition, arguments: ["--version"], environment: environment, output: { output.append($0) }) == .succeeded)
        #expect(output.lines.last == "probe-help \(PipelineVersion.description())")
        #expect(output.lines.last?.contains("(commit ") == true)
        #expect(JobRunner.run(definition, arguments: ["--nope"], environment: environment, output: { output.append($0) }).rawValue == 2)
        #expect(JobRunner.run(definition, arguments: [], environment: environment, output: { output.append($0) }).rawValue == 2,
                "no database configured is a configuration error")
    }

    @Test func dryRunWritesNothing() throws {
        let db = try PostgresConnection(configuration: try Self.database.get())
        let before = try db.query("SELECT count(*) AS c FROM job_run").first?.decode(Int64.self, "c")
        let (code, summary) = try run(JobDefinition(name: "probe-dry", summary: "t") { context in
            #expect(context.dryRun)
        }, ["--dry-run"])
        #expect(code == .succeeded)
        #expect(summary["dry_run"] as? Bool == true)
        #expect(try db.query("SELECT count(*) AS c FROM job_run").first?.decode(Int64.self, "c") == before)
    }

    @Test func secondConcurrentRunExitsFourNamingTheHolder() throws {
        let environment = try Self.environment()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let first = JobDefinition(name: "probe-lock", summary: "t") { _ in
                holding.signal()
                release.wait()
            }
            _ = JobRunner.run(first, arguments: ["--log-format", "json"], environment: environment, output: { _ in })
            finished.signal()
        }.start()
        holding.wait()
        let output = OutputLines()
        let second = JobDefinition(name: "probe-lock", summary: "t") { _ in Issue.record("the second run must not start") }
        let code = JobRunner.run(second, arguments: ["--log-format", "json"], environment: environment, output: { output.append($0) })
        release.signal()
        finished.wait()
        #expect(code == .locked)
        #expect(code.rawValue == 4)
        let line = output.lines.joined()
        #expect(line.contains("pid \(getpid())"))
        #expect(line.contains("on host \(ProcessInfo.processInfo.hostName)"))
        #expect(line.contains("started at 20"))
    }

    /// A closed session frees its advisory locks only after its backend has exited, and a backend with many temporary
    /// tables drops them first: without the explicit unlock the next run (the nightly chain's next step, a test's
    /// second run) could find the lock still held. 400 temporary tables widen that window to tens of milliseconds.
    @Test func theJobLockIsReleasedBeforeTheRunReturns() throws {
        let definition = JobDefinition(name: "probe-temp-tables", summary: "t") { context in
            for table in 0..<400 { try context.database.execute("CREATE TEMP TABLE probe_\(table) (id int)") }
        }
        let (code, _) = try run(definition)
        #expect(code == .succeeded)
        let other = try PostgresConnection(configuration: try Self.database.get())
        defer { other.close() }
        #expect(try other.tryAdvisoryLock("job:probe-temp-tables"), "the finished run must not still hold its lock")
        _ = try other.advisoryUnlock("job:probe-temp-tables")
    }

    @Test func realMigrateBinaryExitsFourWhileAnotherMigrateHoldsTheLock() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("migrate")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the jobs first (make test does)")
        let environment = try Self.environment()
        let result = OutputLines()
        let holder = JobDefinition(name: "migrate", summary: "holds the migrate lock") { _ in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--log-format", "json"]
            process.environment = environment.variables
            let stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = Pipe()
            try process.run()
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            result.append("\(process.terminationStatus)")
            result.append(String(decoding: data, as: UTF8.self))
        }
        #expect(JobRunner.run(holder, arguments: ["--log-format", "json"], environment: environment, output: { _ in }) == .succeeded)
        #expect(result.lines.first == "4")
        let summary = result.lines.dropFirst().joined()
        #expect(summary.contains("\"status\":\"locked\""))
        #expect(summary.contains("pid \(getpid())"))
    }
}

/// A `job_run` row left `running` by a process that died (its connection is gone) is marked `abandoned` by the next
/// run of any job; a row whose connection is still open is left alone. Its own database: any job run in
/// `JobRunnerTests`' database (those tests run alongside) would mark the dead row first.
@Suite(.serialized) struct AbandonedRunTests {
    static let database = JobRunnerTests.migrated("test_jobkit_abandoned")

    static func environment() throws -> JobEnvironment {
        try JobRunnerTests.environment(database, named: "test_jobkit_abandoned")
    }

    @Test func theNextRunMarksRunsWhoseConnectionIsGone() throws {
        let configuration = try Self.database.get()
        let insert = "INSERT INTO job_run (job_name, as_of, host, pid) VALUES ($1, now(), 'elsewhere', 1) RETURNING id"
        let dead = try PostgresConnection(configuration: configuration)
        let deadID = try #require(try dead.query(insert, ["probe-killed"]).first).decode(Int64.self, "id")
        let deadBackend = try #require(try dead.query("SELECT pg_backend_pid() AS p").first).decode(Int32.self, "p")
        dead.close()
        let alive = try PostgresConnection(configuration: configuration)
        defer { alive.close() }
        let aliveID = try #require(try alive.query(insert, ["probe-still-running"]).first).decode(Int64.self, "id")
        let observer = try PostgresConnection(configuration: configuration)
        defer { observer.close() }
        // The server ends a closed connection's backend asynchronously (seconds on a loaded machine): wait for it, up
        // to a minute, so the run below sees it gone.
        var gone = false
        let deadline = Date().addingTimeInterval(60)
        while !gone, Date() < deadline {
            gone = try observer.query("SELECT count(*)::int8 AS n FROM pg_stat_activity WHERE pid = $1", [deadBackend]).first?
                .decode(Int64.self, "n") == 0
            if !gone { Thread.sleep(forTimeInterval: 0.02) }
        }
        try #require(gone, "the closed connection's backend \(deadBackend) still runs after a minute")

        let output = OutputLines()
        let code = JobRunner.run(JobDefinition(name: "probe-after-crash", summary: "test") { _ in }, arguments: ["--log-format", "json"],
                                 environment: try Self.environment(), output: { output.append($0) })
        #expect(code == .succeeded)
        #expect(output.lines.last?.contains("runs_marked_abandoned") == true, "\(output.lines)")
        let rows = try observer.query("SELECT id, status, finished_at IS NOT NULL AS finished, coalesce(error, '') AS error FROM job_run WHERE id IN ($1, $2)",
                                      [deadID, aliveID]).rows
        let status = Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode(Int64.self, "id"), try $0.decode(String.self, "status")) })
        #expect(status[deadID] == "abandoned")
        #expect(status[aliveID] == "running")
        let deadRow = try #require(rows.first { try $0.decode(Int64.self, "id") == deadID })
        #expect(try deadRow.decode(Bool.self, "finished") && deadRow.decode(String.self, "error").contains("ended without the run finishing"))
        _ = try alive.execute("UPDATE job_run SET status = 'succeeded', finished_at = now() WHERE id = $1", [aliveID])
    }
}
