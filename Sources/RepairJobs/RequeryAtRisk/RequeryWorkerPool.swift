import Foundation
import JobKit
import Postgres
import ProjectionStore
import StoreAccess

/// `--threads N` workers of one process: each has its own connection, writer and store-query recorder, claims
/// batches of the run's work items and marks each done only after its projection committed.
struct RequeryWorkerPool: Sendable {
    let configuration: PostgresConfiguration
    let options: RequeryOptions
    let jobRunID: Int64?
    let stores: StoreClientSet
    let tally: RequeryTally
    let stop: RequeryStop
    let logger: JobLogger
    let workerPrefix: String

    /// Runs the workers to completion (no items left, or a stop request) and returns the first worker error.
    func run() -> [String] {
        let group = DispatchGroup()
        let errors = RequeryErrorList()
        for index in 0..<options.threads {
            group.enter()
            let worker = self
            let thread = Thread {
                defer { group.leave() }
                do {
                    try worker.work(name: "\(worker.workerPrefix)/\(index)")
                } catch {
                    errors.append("worker \(worker.workerPrefix)/\(index): \(error)")
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return errors.all
    }

    private func work(name: String) throws {
        let database = try PostgresConnection(configuration: configuration)
        defer { database.close() }
        let leases = RequeryLeases(database: database, runKey: options.runKey)
        let recorder = StoreQueryRecorder(database: database, jobRunID: jobRunID)
        let processor = RequeryItemProcessor(database: database, jobRunID: jobRunID, stores: stores, asOf: options.asOf)
        let reconciliation = ReconciliationRepair(database: database, writer: ProjectionWriter(database: database, jobRunID: jobRunID),
                                                  stores: stores, asOf: options.asOf, jobRunID: jobRunID)
        defer {
            for (outcome, count) in recorder.outcomes where outcome == "rate_limited" { tally.add("rate_limited_429", count) }
        }
        while !stop.isRequested {
            let items = try leases.claim(worker: name, limit: options.batchSize, leaseSeconds: options.leaseTimeoutSeconds)
            if items.isEmpty { return }
            for (position, item) in items.enumerated() {
                if stop.isRequested {
                    try leases.release(Array(items[position...]))
                    return
                }
                // The open reconciliation items pointing at it, read before its re-query may restore a row of theirs.
                let reconciliationItems = item.category == .reconciliation ? readItems(item, reconciliation) : []
                // A projected item's store_query rows and its completion commit with its projection.
                var recorded = 0
                let outcome = AttemptContext.$recorder.withValue(recorder) {
                    processor.process(item.target) { db, result in
                        if let insert = recorder.pendingInsert() {
                            try db.enqueue(insert.statement)
                            recorded = insert.count
                        }
                        try db.enqueue(leases.completion(item, outcome: result.drift.isEmpty ? "unchanged" : "repaired"))
                    }
                }
                if case .projected = outcome { recorder.written(recorded) }
                try recorder.flush()
                try RequeryAtRisk.settle(item, outcome, leases: leases, tally: tally, logger: logger)
                if !reconciliationItems.isEmpty, !outcomeIsBudget(outcome) {
                    repairReconciliation(item, reconciliationItems, tokenGone: outcome == .tokenGone, with: reconciliation,
                                         recorder: recorder)
                    try recorder.flush()
                }
            }
        }
    }
}

extension RequeryWorkerPool {
    /// After the subscription's own re-query: its history repaired for the open reconciliation items that point at it,
    /// each item's outcome counted (`reconciliation.repaired`, `.not_found`, `.store_window`, `.failed`).
    func repairReconciliation(_ item: RequeryWorkItem, _ items: [ReconciliationItemRef], tokenGone: Bool, with repair: ReconciliationRepair,
                              recorder: StoreQueryRecorder) {
        do {
            let outcomes = try AttemptContext.$recorder.withValue(recorder) {
                try repair.repair(item.target, items: items, tokenGone: tokenGone)
            }
            for outcome in outcomes {
                tally.add("reconciliation." + outcome.name)
                if case .failed(let reason) = outcome {
                    logger.warning("reconciliation repair failed; left for the next run", ["subscription": item.subscriptionId, "reason": reason])
                }
            }
        } catch {
            tally.add("reconciliation.failed")
            logger.warning("reconciliation repair failed; left for the next run", ["subscription": item.subscriptionId, "reason": "\(error)"])
        }
    }

    /// The open reconciliation items of the item's subscription; a failed read is counted and leaves none.
    private func readItems(_ item: RequeryWorkItem, _ repair: ReconciliationRepair) -> [ReconciliationItemRef] {
        do {
            return try ReconciliationTargets.items(of: item.subscriptionId, database: repair.database)
        } catch {
            tally.add("reconciliation.failed")
            logger.warning("reconciliation items could not be read", ["subscription": item.subscriptionId, "reason": "\(error)"])
            return []
        }
    }

    private func outcomeIsBudget(_ outcome: RequeryItemOutcome) -> Bool {
        if case .budgetExhausted = outcome { return true }
        return false
    }
}

/// Worker errors collected across threads.
final class RequeryErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ message: String) { lock.lock(); storage.append(message); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}
