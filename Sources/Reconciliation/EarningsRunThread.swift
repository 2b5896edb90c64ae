import Foundation
import StoreExports

/// Reads a Google earnings zip on a thread of its own (`GoogleEarningsStream`, which inflates on yet another),
/// folds its rows into runs there (`EarningsRunFolder`) and hands them to the caller in batches, in file order: the
/// caller adds runs to the report side while the next rows are parsed, so inflating, parsing and adding use both
/// cores. A failure of the file reaches the caller after every row read before it, as it would without the thread.
final class EarningsRunThread: @unchecked Sendable {
    /// Batches folded ahead of the caller at most.
    static let depth = 8

    /// What a read gives besides its batches.
    struct Outcome {
        /// The zip's member.
        var member: String
        /// Earnings rows read.
        var rows: Int
        /// The texts the batches' units are numbered in.
        var texts: UnitTexts
    }

    private let condition = NSCondition()
    private var batches: [EarningsRuns] = []
    private var outcome: Result<Outcome, Error>?
    private var cancelled = false

    /// Thrown on the reading thread once the caller has stopped taking batches.
    struct Cancelled: Error {}

    /// Reads the zip at `path` (named `file` in errors), handing its runs to `body` on the calling thread, in
    /// batches of `batchSize` runs in file order; returns the member, the rows and the texts, or throws the file's
    /// first defect (after the runs of the rows before it).
    static func read(path: String, file: String, batchSize: Int = 2048, _ body: (EarningsRuns) -> Void) throws -> Outcome {
        let queue = EarningsRunThread()
        let thread = Thread {
            var folder = EarningsRunFolder(batchSize: batchSize)
            let read = Result {
                try GoogleEarningsStream.readFields(path: path, file: file) { entry in
                    if let full = folder.add(entry) { try queue.put(full) }
                }
            }
            // The runs of the rows read before the end (or before a defect) go first.
            if let last = folder.finish() { try? queue.put(last) }
            queue.end(read.map { Outcome(member: $0.member, rows: $0.rows, texts: folder.texts) })
        }
        thread.stackSize = 1 << 22
        thread.start()
        while let batch = queue.take() { body(batch) }
        return try queue.result()
    }

    /// Waits for room, then queues `batch`; throws `Cancelled` when the caller has stopped.
    private func put(_ batch: EarningsRuns) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= Self.depth, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Records how the reading ended.
    private func end(_ result: Result<Outcome, Error>) {
        condition.lock()
        outcome = result
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or nil once the reading has ended and every batch was taken.
    private func take() -> EarningsRuns? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, outcome == nil { condition.wait() }
        guard !batches.isEmpty else { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    /// How the reading ended (after `take` returned nil).
    private func result() throws -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return try outcome.get() }
            condition.wait()
        }
    }
}
