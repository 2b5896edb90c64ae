import Foundation
import StoreExports

/// Reads a Google earnings file and folds its facts on a thread of its own while the calling thread writes them
/// (the `COPY` to the server): the scan does not wait while the socket is full, nor the `COPY` while a row is read.
/// Facts go across in batches of `batchSize`, at most `depth` waiting; the batches and their facts' byte arrays are
/// handed back and reused, so memory stays that of a few batches whatever the file's size and no fact allocates once
/// the first batches exist. A failure on either side stops the other; the reading thread has ended when `run` returns.
final class GoogleEarningsFactPipe: @unchecked Sendable {
    /// Facts a batch holds.
    static let batchSize = 2_048
    /// Batches waiting at most.
    static let depth = 4

    /// Thrown on the reading thread once the writer has stopped.
    struct Cancelled: Error {}

    /// A batch: its first `count` facts are the ones to write.
    struct Batch {
        var facts: [GoogleEarningsFact] = []
        var count = 0

        /// Adds a copy of `fact`, reusing the byte arrays of the slot it lands in.
        mutating func add(_ fact: GoogleEarningsFact) {
            if count == facts.count { facts.append(GoogleEarningsFact()) }
            facts[count].assign(fact)
            count += 1
        }
    }

    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var spare: [Batch] = []
    private var outcome: Result<GoogleEarningsTally, Error>?
    private var cancelled = false

    /// Reads the file at `path` on a thread of its own, folding its rows into facts, and hands each fact, in file
    /// order, to `write` on the calling thread; returns the read's tally, or throws the read's error (or `write`'s).
    static func run(_ path: String, write: (GoogleEarningsFact) throws -> Void) throws -> GoogleEarningsTally {
        let pipe = GoogleEarningsFactPipe()
        let thread = Thread {
            let outcome = Result { () throws -> GoogleEarningsTally in
                var facts = GoogleEarningsFacts()
                var batch = pipe.take(spare: ())
                func hand(_ fact: GoogleEarningsFact) throws {
                    batch.add(fact)
                    if batch.count == batchSize {
                        try pipe.put(batch)
                        batch = pipe.take(spare: ())
                    }
                }
                let tally = try GoogleEarningsReading.read(path) { row in try facts.add(row.foldedFields, hand) }
                try facts.finish(hand)
                if batch.count > 0 { try pipe.put(batch) }
                return tally
            }
            pipe.end(outcome)
        }
        thread.stackSize = 4 << 20
        thread.start()
        do {
            while var batch = pipe.next() {
                for index in 0..<batch.count { try write(batch.facts[index]) }
                batch.count = 0
                pipe.recycle(batch)
            }
        } catch {
            pipe.cancel()
            _ = pipe.waitForEnd()
            throw error
        }
        return try pipe.waitForEnd().get()
    }

    /// A spare batch (empty), or a new one.
    private func take(spare _: Void) -> Batch {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast() ?? Batch()
    }

    /// Queues `batch` for the writer, waiting while `depth` batches wait; throws once the writer has stopped.
    private func put(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.depth, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        ready.append(batch)
        condition.broadcast()
    }

    /// The reading's end.
    private func end(_ result: Result<GoogleEarningsTally, Error>) {
        condition.lock()
        outcome = result
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch in file order, nil once the reading has ended and every batch was taken (or it failed).
    private func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty, outcome == nil { condition.wait() }
        if ready.isEmpty { return nil }
        if case .failure = outcome { return nil }
        let batch = ready.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Hands a written batch back for reuse.
    private func recycle(_ batch: Batch) {
        condition.lock()
        spare.append(batch)
        condition.unlock()
    }

    /// Stops the reading (its next hand-over throws `Cancelled`).
    private func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the reading thread has ended; its outcome.
    private func waitForEnd() -> Result<GoogleEarningsTally, Error> {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome ?? .failure(Cancelled())
    }
}

extension GoogleEarningsFact {
    /// Becomes a copy of `other`, keeping its own byte arrays' storage.
    mutating func assign(_ other: GoogleEarningsFact) {
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: other.order)
        currency.removeAll(keepingCapacity: true)
        currency.append(contentsOf: other.currency)
        country.removeAll(keepingCapacity: true)
        country.append(contentsOf: other.country)
        product.removeAll(keepingCapacity: true)
        product.append(contentsOf: other.product)
        (side, gross, fee, tax, charges, rows, refundType, at) =
            (other.side, other.gross, other.fee, other.tax, other.charges, other.rows, other.refundType, other.at)
    }
}
