import CompactMemory
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

    /// Reads the file at `path` on a thread of its own, folding its rows into facts, and hands each fact, in file
    /// order, to `write` on the calling thread; returns the read's tally, or throws the read's error (or `write`'s).
    static func run(_ path: String, write: (GoogleEarningsFact) throws -> Void) throws -> GoogleEarningsTally {
        let batches = BoundedHandOff<Batch>(depth: depth, spares: depth + 2)
        let read = ReadOutcome()
        let thread = Thread {
            let outcome = Result { () throws -> GoogleEarningsTally in
                var facts = GoogleEarningsFacts()
                var batch = batches.spare() ?? Batch()
                func hand(_ fact: GoogleEarningsFact) throws {
                    batch.add(fact)
                    if batch.count == batchSize {
                        try batches.put(batch)
                        batch = batches.spare() ?? Batch()
                    }
                }
                let tally = try GoogleEarningsReading.read(path) { row in try facts.add(row.foldedFields, hand) }
                try facts.finish(hand)
                if batch.count > 0 { try batches.put(batch) }
                return tally
            }
            read.outcome = outcome
            batches.finish(after: outcome)
        }
        thread.stackSize = 4 << 20
        thread.start()
        do {
            while var batch = try batches.take() {
                for index in 0..<batch.count { try write(batch.facts[index]) }
                batch.count = 0
                batches.recycle(batch)
            }
        } catch {
            batches.stop()
            batches.waitUntilFinished()
            throw error
        }
        batches.waitUntilFinished()
        return try read.outcome.get()
    }

    /// The reading thread's outcome, set before it finishes the hand-over (so read after `waitUntilFinished`).
    private final class ReadOutcome: @unchecked Sendable {
        var outcome: Result<GoogleEarningsTally, Error> = .failure(BoundedHandOff<Batch>.Stopped())
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
