import Foundation
import Postgres

/// The `nightly` job: runs the nightly chain's job executables in order and stops on the first hard failure.
public enum NightlyChain {
    /// The chain, in order (docs/RUNBOOK.md, "Scheduling").
    public static let steps = [
        "replay-events", "recover-notifications", "sweep-voided", "ack-rescue", "requery-at-risk", "expire-lapsed",
        "import-exports", "reconcile", "build-reports", "drift-counts",
    ]

    /// The job definition used by `Jobs/nightly`.
    public static var definition: JobDefinition { JobDefinition(
        name: "nightly",
        summary: "run the nightly chain (\(steps.joined(separator: ", "))) in order, stopping on the first hard failure"
    ) { context in
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var passThrough = ["--as-of", PostgresTimestamp.iso8601(context.asOf)]
        if context.dryRun { passThrough.append("--dry-run") }
        if let format = context.arguments.logFormat { passThrough += ["--log-format", format.rawValue] }
        var breached: [String] = []
        for step in steps {
            let executable = folder.appendingPathComponent(step)
            guard FileManager.default.isExecutableFile(atPath: executable.path) else {
                context.logger.info("\(step): not built yet, skipped")
                context.count("skipped")
                continue
            }
            context.logger.info("\(step): starting")
            let code = try runChild(executable, passThrough)
            switch code {
            case 0: context.count("succeeded")
            case 3: context.count("threshold_breached"); breached.append(step)
            default:
                context.count("failed")
                throw JobError.failed("\(step) exited \(code); the chain stopped there")
            }
        }
        if !breached.isEmpty { throw JobError.thresholdBreached("in \(breached.joined(separator: ", "))") }
    } }

    private static func runChild(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

