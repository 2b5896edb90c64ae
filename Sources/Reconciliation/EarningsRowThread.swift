import Foundation
import StoreExports

/// Reads a Google earnings zip on a thread of its own (`GoogleEarningsStream`, which inflates on yet another) and
/// hands its rows to the caller in batches, in file order: the caller folds rows while the next ones are parsed, so
/// parsing, inflating and folding use both cores. A failure of the file reaches the caller after every row read
/// before it, as it would without the thread.
final class EarningsRowThread: @unchecked Sendable {
    /// Rows per batch.
    static let batchSize = 4096
    /// Batches parsed ahead of the caller at most.
    static let depth = 8

    private let condition = NSCondition()
    private var batches: [[GoogleEarningsEntry]] = []
    private var outcome: Result<(member: String, rows: Int), Error>?
    private var cancelled = false

    /// Thrown on the reading thread once the caller has stopped taking rows.
    struct Cancelled: Error {}

    /// Reads the zip at `path` (named `file` in errors), handing the rows to `body` on the calling thread, in
    /// batches in file order; returns the member's name and the number of rows, or throws the file's first defect.
    static func read(path: String, file: String, _ body: ([GoogleEarningsEntry]) -> Void) throws -> (member: String, rows: Int) {
        let queue = EarningsRowThread()
        let thread = Thread {
            var batch: [GoogleEarningsEntry] = []
            batch.reserveCapacity(batchSize)
            let outcome = Result {
                try GoogleEarningsStream.read(path: path, file: file) { entry in
                    batch.append(entry)
                    if batch.count == batchSize {
                        try queue.put(batch)
                        batch = []
                        batch.reserveCapacity(batchSize)
                    }
                }
            }
            // The rows read before the end (or before a defect) go first.
            if !batch.isEmpty { try? queue.put(batch) }
            queue.end(outcome)
        }
        thread.stackSize = 1 << 22
        thread.start()
        while let batch = queue.take() { body(batch) }
        return try queue.result()
    }

    /// Waits for room, then queues `batch`; throws `Cancelled` when the caller has stopped.
    private func put(_ batch: [GoogleEarningsEntry]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= Self.depth, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// Records how the reading ended.
    private func end(_ result: Result<(member: String, rows: Int), Error>) {
        condition.lock()
        outcome = result
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or nil once the reading has ended and every batch was taken.
    private func take() -> [GoogleEarningsEntry]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, outcome == nil { condition.wait() }
        guard !batches.isEmpty else { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    /// How the reading ended (after `take` returned nil).
    private func result() throws -> (member: String, rows: Int) {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return try outcome!.get()
    }
}
