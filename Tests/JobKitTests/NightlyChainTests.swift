import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// `nightly` over a folder of stand-in step scripts: status lines, soft failures continue, hard ones stop the chain,
/// the summary table, and the worst step's exit code.
@Suite(.serialized) struct NightlyChainTests {
    static let database: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, connection) = try TestDatabase.migrated("test_nightly")
        connection.close()
        return configuration
    }

    /// A folder with one script per chain step; `codes` sets a step's exit code (default 0). Each script appends its
    /// name to `ran.log` and prints a job-style summary line.
    static func stepsFolder(_ codes: [String: Int32]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for step in NightlyChain.steps {
            let code = codes[step] ?? 0
            let script = """
                #!/bin/sh
                echo \(step) >> "\(folder.path)/ran.log"
                echo 'a log line that is not the summary'
                echo '{"counts":{"checked":7,"zero":0},"exit_code":\(code),"job":"\(step)"}'
                exit \(code)
                """
            let file = folder.appendingPathComponent(step)
            try script.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        return folder
    }

    static func run(_ codes: [String: Int32]) throws -> (code: JobExitCode, lines: [String], ran: [String]) {
        _ = try database.get()
        let folder = try stepsFolder(codes)
        defer { try? FileManager.default.removeItem(at: folder) }
        var variables = ProcessInfo.processInfo.environment
        variables["DATABASE_URL"] = nil
        variables["PGDATABASE"] = "test_nightly"
        let output = OutputLines()
        let code = JobRunner.run(NightlyChain.definition(output: { output.append($0) }),
                                 arguments: ["--steps-dir", folder.path, "--log-format", "json"],
                                 environment: JobEnvironment(variables), output: { output.append($0) })
        let ran = (try? String(contentsOf: folder.appendingPathComponent("ran.log"), encoding: .utf8))?
            .split(separator: "\n").map(String.init) ?? []
        return (code, output.lines, ran)
    }

    @Test func everyStepSucceedsPrintsAStatusLinePerStepAndATableThatFitsEightyColumns() throws {
        let (code, lines, ran) = try Self.run([:])
        #expect(code == .succeeded)
        #expect(ran == NightlyChain.steps)
        for step in Set(NightlyChain.steps) {
            // Once as the step finished, once in the summary table (reconcile runs twice: before and after the repair).
            let runs = NightlyChain.steps.filter { $0 == step }.count
            #expect(lines.filter { $0.hasPrefix(step + " ") && $0.contains("exit 0") && $0.contains("checked=7") }.count == 2 * runs, "\(step)")
        }
        #expect(!lines.contains { $0.contains("zero=") }, "zero counts are left out of the one-line summary")
        #expect(lines.contains("nightly summary"))
        #expect(lines.contains { $0.hasPrefix("nightly: exit 0") && $0.contains("\(NightlyChain.steps.count) ok") })
        #expect(lines.dropLast().allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    }

    @Test func softFailuresContinueAndTheWorstCodeWins() throws {
        let (code, lines, ran) = try Self.run(["reconcile": 1, "drift-counts": 3, "sweep-voided": 3])
        #expect(ran == NightlyChain.steps, "a soft failure does not stop the chain")
        #expect(code == .failed, "exit 1 of reconcile outranks the threshold breaches")
        #expect(lines.contains { $0.hasPrefix("reconcile ") && $0.contains("exit 1") && $0.contains("soft") })
        #expect(lines.contains { $0.hasPrefix("nightly: exit 1") && $0.contains("4 soft") }, "both reconciles, drift-counts, sweep-voided")
        let summary = try #require(lines.last)
        #expect(summary.contains("\"status\":\"failed\""))
        #expect(summary.contains("reconcile exit 1"))
    }

    @Test func onlyABreachExitsThree() throws {
        let (code, _, ran) = try Self.run(["drift-counts": 3, "import-exports": 3])
        #expect(code == .thresholdBreached)
        #expect(ran == NightlyChain.steps)
    }

    @Test func aRepairJobFailureIsHardAndStopsTheChain() throws {
        let (code, lines, ran) = try Self.run(["requery-at-risk": 1])
        #expect(code == .failed)
        #expect(ran == Array(NightlyChain.steps.prefix { $0 != "requery-at-risk" }) + ["requery-at-risk"])
        #expect(lines.contains { $0.hasPrefix("requery-at-risk ") && $0.contains("hard") })
        #expect(lines.contains { $0.hasPrefix("drift-counts ") && $0.contains("not run") })
        #expect(lines.contains { $0.hasPrefix("nightly: exit 1") && $0.contains("1 hard") && $0.contains("4 not run") })
    }

    @Test func aConfigurationErrorAnywhereIsHardAndExitsTwo() throws {
        let (code, _, ran) = try Self.run(["reconcile": 3, "build-reports": 2])
        #expect(code == .usageOrConfiguration)
        #expect(ran.last == "build-reports")
        #expect(!ran.contains("drift-counts"))
    }

    @Test func severityRules() {
        #expect(NightlyStepSeverity.of(step: "import-exports", exitCode: 1) == .soft)
        #expect(NightlyStepSeverity.of(step: "ack-rescue", exitCode: 1) == .hard)
        #expect(NightlyStepSeverity.of(step: "ack-rescue", exitCode: 3) == .soft)
        #expect(NightlyStepSeverity.of(step: "reconcile", exitCode: 4) == .hard)
        #expect(NightlyStepSeverity.of(step: "reconcile", exitCode: 137) == .hard)
        #expect(NightlyStepSeverity.of(step: "reconcile", exitCode: nil) == .skipped)
        let results = [3, 1, 4].map { NightlyStepResult(name: "x", exitCode: $0, durationMilliseconds: 0, summary: "") }
        #expect(NightlyStepResult.worstExitCode(results) == .locked)
        #expect(NightlyStepResult.worstExitCode([NightlyStepResult(name: "x", exitCode: 139, durationMilliseconds: 0, summary: "")]) == .failed)
    }
}
