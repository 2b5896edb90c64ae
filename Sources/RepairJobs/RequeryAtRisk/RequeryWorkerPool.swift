import Foundation
import JobKit
import Postgres
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
            }
        }
    }
}

/// Worker errors collected across threads.
final class RequeryErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ message: String) { lock.lock(); storage.append(message); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}
