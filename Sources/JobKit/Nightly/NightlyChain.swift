import Foundation
import Postgres

/// The `nightly` job: runs the nightly chain's job executables in order, prints a status line per step and a summary
/// table at the end, continues past soft failures and stops at the first hard one (`NightlyStepSeverity`), and exits
/// with the worst step's code.
public enum NightlyChain {
    /// The chain, in order (docs/RUNBOOK.md, "Scheduling"). `reconcile` runs twice around `requery-at-risk`: the first
    /// lists what the month's store files hold that the history lacks, requery-at-risk repairs what the stores answer
    /// for (its `reconciliation` category), and the second shows what is left (docs/RECONCILIATION.md, "Closing the loop").
    public static let steps = [
        "replay-events", "recover-notifications", "sweep-voided", "ack-rescue", "import-exports", "reconcile",
        "requery-at-risk", "expire-lapsed", "reconcile", "build-reports", "drift-counts",
    ]

    /// The job's own option: where the step executables are (tests point it at a folder of scripts).
    public static let options: [JobOption] = [
        .value("steps-dir", placeholder: "dir", help: "run the step executables found here (default: nightly's own folder)"),
    ]

    /// The job definition used by `Jobs/nightly`; `output` receives the status lines and the summary table.
    public static func definition(output: @escaping @Sendable (String) -> Void = { print($0) }) -> JobDefinition { JobDefinition(
        name: "nightly",
        summary: "run the nightly chain (\(steps.joined(separator: ", "))) in order; soft failures go on, hard ones stop it",
        options: options
    ) { context in
        let folder = context.arguments.values["steps-dir"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var passThrough = ["--as-of", PostgresTimestamp.iso8601(context.asOf)]
        if context.dryRun { passThrough.append("--dry-run") }
        if let format = context.arguments.logFormat { passThrough += ["--log-format", format.rawValue] }
        var results: [NightlyStepResult] = []
        var notReached: [String] = []
        output(NightlyTable.header)
        for (index, step) in steps.enumerated() {
            let result = try run(step, in: folder, passThrough)
            results.append(result)
            output(NightlyTable.clip(result.statusLine, 78))
            context.logger.info("\(step): \(result.severity.rawValue)", ["exit_code": result.exitCode.map { String($0) } ?? "none",
                                                                     "duration_ms": String(result.durationMilliseconds)])
            context.count(result.severity == .ok ? "succeeded" : result.severity.rawValue)
            if result.severity == .hard {
                notReached = Array(steps[(index + 1)...])
                context.setCount("not_reached", notReached.count)
                break
            }
        }
        let worst = NightlyStepResult.worstExitCode(results)
        NightlyTable.summary(results, notReached: notReached, exitCode: worst).forEach(output)
        let bad = results.filter { $0.severity == .soft || $0.severity == .hard }.map { "\($0.name) exit \($0.exitCode ?? 0)" }
        switch worst {
        case .succeeded: return
        case .thresholdBreached: throw JobError.thresholdBreached(bad.joined(separator: ", "))
        case .usageOrConfiguration: throw JobError.configuration(bad.joined(separator: ", "))
        case .locked: throw JobError.locked(LockHolder(jobName: bad.joined(separator: ", "), pid: nil, host: nil, startedAt: nil, backendPID: nil))
        case .failed: throw JobError.failed(bad.joined(separator: ", ") + (notReached.isEmpty ? "" : "; the chain stopped there"))
        }
    } }

    /// Runs one step's executable, capturing its stdout (its summary line is the last); a missing one is skipped.
    static func run(_ step: String, in folder: URL, _ arguments: [String]) throws -> NightlyStepResult {
        let executable = folder.appendingPathComponent(step)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            return NightlyStepResult(name: step, exitCode: nil, durationMilliseconds: 0, summary: "not installed, skipped")
        }
        let started = Date()
        let process = Process()
        let stdout = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = stdout
        do {
            try process.run()
        } catch {
            throw JobError.failed("cannot start \(step): \(error)")
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lastLine = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let code = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return NightlyStepResult(name: step, exitCode: code, durationMilliseconds: Int(Date().timeIntervalSince(started) * 1_000),
                                 summary: NightlyTable.digest(ofSummaryLine: lastLine))
    }
}
