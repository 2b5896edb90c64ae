import Foundation
import JobKit
import Postgres
import StoreAccess

/// The `requery-at-risk` job: selects at-risk subscriptions in the backfill priority, hands them out through row
/// leases, re-queries each at its store and repairs the projection through the one writer, recording drift.
public enum RequeryAtRisk {
    /// The job's own options (shown in `--help`).
    public static let options: [JobOption] = [
        .value("threads", placeholder: "n", help: "worker threads in this process, each with its own connection (default 4)"),
        .value("run-key", placeholder: "key", help: "lease key shared by the processes of one run (default: the --as-of date)"),
        .value("window-days", placeholder: "n", help: "period-ending window in days (default 2)"),
        .value("fresh-hours", placeholder: "n", help: "skip subscriptions verified within n hours (default 6)"),
        .value("refund-days", placeholder: "n", help: "re-check refunds and revocations of the last n days (default 30)"),
        .value("categories", placeholder: "list", help: "comma-separated categories to select (default all)"),
        .value("shares", placeholder: "list", help: "per-category share of --limit, e.g. stale=0.2,period_ending=0.5"),
        .value("batch-size", placeholder: "n", help: "work items claimed per lease (default 20)"),
        .value("lease-seconds", placeholder: "n", help: "claims older than this are taken over (default 600)"),
        .value("subscription", placeholder: "id", help: "re-query one subscription: uuid, originalTransactionId or purchase token"),
    ]

    /// The job definition; tests pass clients pointed at the simulator and their own stop flag.
    public static func definition(stores: @escaping StoreClientSet.Factory = StoreClientSet.fromEnvironment,
                                  stop: RequeryStop? = nil) -> JobDefinition {
        JobDefinition(name: "requery-at-risk",
                      summary: "re-query at-risk subscriptions at Apple and Google and repair the projection, recording drift",
                      options: options, exclusive: false) { context in
            let flag: RequeryStop
            if let stop {
                flag = stop
            } else {
                flag = RequeryStop()
                flag.installSignalHandlers()
            }
            let requery = try RequeryOptions.parse(context.arguments, asOf: context.asOf)
            let progress = context.progress("re-querying subscriptions", unit: "subscriptions", total: nil)
            defer { progress.finish() }
            let counts = try run(RequeryRun(database: context.database, environment: context.environment, options: requery,
                                            jobRunID: context.runID, dryRun: context.dryRun, logger: context.logger,
                                            stores: stores, stop: flag), progress: progress)
            for (name, value) in counts { context.setCount(name, value) }
            if flag.isRequested { context.note("stopped", "signal: requests in flight finished, the rest left for the next run") }
            if counts["budget_exhausted"] != nil { context.note("stopped_store", "daily budget used up; those subscriptions are left for the next run") }
            try FailedItems.breachIfAny(context)
        }
    }

    /// Runs one process's share of a run and returns its summary counts; `progress` follows the items this process
    /// settled against every item the run selected (all processes sharing the run key).
    public static func run(_ run: RequeryRun, progress: JobProgress? = nil) throws -> [String: Int] {
        if let identifier = run.options.subscription { return try single(run, identifier: identifier) }
        let tally = RequeryTally()
        if run.dryRun {
            let selection = try RequerySelection.select(run.database, options: run.options)
            for item in selection {
                tally.add("selected." + item.category.rawValue)
                if item.isTest { tally.add("selected_test") }
            }
            tally.add("selected", selection.count)
            for (name, value) in tally.counts.sorted(by: { $0.key < $1.key }) { run.logger.info("would re-query \(name): \(value)") }
            return tally.counts
        }
        let leases = RequeryLeases(database: run.database, runKey: run.options.runKey)
        try leases.materialise(run.options)
        if run.options.categories.contains(.reconciliation) {
            tally.add("reconciliation.unmatched", try ReconciliationTargets.recordUnmatched(database: run.database, jobRunID: run.jobRunID))
        }
        for entry in try leases.selectedCounts() {
            tally.add("selected." + entry.category, entry.count)
            tally.add("selected", entry.count)
            if entry.isTest { tally.add("selected_test", entry.count) }
        }
        progress?.update(total: tally.counts["selected"] ?? 0)
        progress?.follow { tally.counts.reduce(0) { $0 + (["queried", "failed", "budget_exhausted"].contains($1.key) ? $1.value : 0) } }
        let stores = try run.stores(run.environment, run.database.configuration, AttemptContext.observer)
        let pool = RequeryWorkerPool(configuration: run.database.configuration, options: run.options, jobRunID: run.jobRunID,
                                     stores: stores, tally: tally, stop: run.stop, logger: run.logger,
                                     workerPrefix: "\(ProcessInfo.processInfo.processIdentifier)-\(run.database.backendPID)")
        let errors = pool.run()
        if let first = errors.first { throw JobError.failed(first + (errors.count > 1 ? " (and \(errors.count - 1) more)" : "")) }
        return tally.counts
    }

    /// Records an item's outcome: done (token gone; a projected item was completed inside its projection's transaction)
    /// or failed (left for the next run).
    static func settle(_ item: RequeryWorkItem, _ outcome: RequeryItemOutcome, leases: RequeryLeases, tally: RequeryTally,
                       logger: JobLogger) throws {
        switch outcome {
        case .projected(let drift):
            tally.add("queried")
            if !drift.isEmpty { tally.add("repaired") }
            for kind in drift { tally.add("drift." + kind) }   // completed with the projection's COMMIT
        case .tokenGone:
            tally.add("queried")
            tally.add("token_gone")
            try leases.complete(item, outcome: "token_gone")
        case .failed(let failure):
            tally.add("failed")
            tally.add(FailedItems.key(failure.failureKind))
            logger.warning("re-query failed; left for the next run", ["subscription": item.subscriptionId, "reason": failure.description])
            try leases.fail(item, reason: failure.description)
        case .budgetExhausted(let reason):
            // Once per run and store is enough to log: every later item of that store ends the same way, without a call.
            if tally.add("budget_exhausted") == 1 { logger.warning("daily budget used up; the rest is left for the next run", ["reason": reason]) }
            try leases.fail(item, reason: reason)
        }
    }
}
