import CompactMemory
import Foundation
import Postgres
import StoreExports

/// Reads a Google earnings file, folds its facts and encodes them as binary `COPY` tuples on a thread of its own
/// while the calling thread sends the bytes (the `COPY` to the server): the scan does not wait while the socket is
/// full, nor the `COPY` while a row is read, and no fact crosses between the threads, only its tuple's bytes. Tuples
/// go across in batches of about `batchBytes`, at most `depth` waiting; the batches are handed back and reused, so
/// memory stays that of a few batches whatever the file's size. A failure on either side stops the other; the
/// reading thread has ended when `run` returns.
final class GoogleEarningsFactPipe: @unchecked Sendable {
    /// Bytes of tuples after which a batch is handed over (the `COPY`'s own chunk: it is sent without a copy).
    static let batchBytes = 1 << 20
    /// Batches waiting at most.
    static let depth = 4

    /// What the reading thread found: the read's tally and the facts encoded.
    struct Outcome {
        let tally: GoogleEarningsTally
        let facts: Int
    }

    /// Reads the file at `path` on a thread of its own, folding its rows into facts encoded as `google_earnings_fact`
    /// tuples of file `fileID` (`GoogleEarningsFact.write(file:seq:to:)`, seq 0, 1, … in file order), and hands the
    /// tuples' bytes, in order, to `write` on the calling thread; returns what the read found, or throws the read's
    /// error (or `write`'s). `handOverAt`: the batch size in bytes (tests make it small).
    static func run(_ path: String, fileID: Int64, handOverAt: Int = batchBytes,
                    write: (UnsafeRawBufferPointer) throws -> Void) throws -> Outcome {
        let batches = BoundedHandOff<BinaryCopyTuples>(depth: depth, spares: depth + 2)
        let read = ReadOutcome()
        let thread = Thread {
            let outcome = Result { () throws -> Outcome in
                var facts = GoogleEarningsFacts()
                var batch = batches.spare() ?? BinaryCopyTuples(capacity: handOverAt + (1 << 16))
                var seq: Int32 = 0
                func hand(_ fact: GoogleEarningsFact) throws {
                    fact.write(file: fileID, seq: seq, to: &batch)
                    seq += 1
                    if batch.count >= handOverAt {
                        try batches.put(batch)
                        batch = batches.spare() ?? BinaryCopyTuples(capacity: handOverAt + (1 << 16))
                    }
                }
                let tally = try GoogleEarningsReading.read(path) { row in try facts.add(row.foldedFields, hand) }
                try facts.finish(hand)
                if batch.count > 0 { try batches.put(batch) }
                return Outcome(tally: tally, facts: Int(seq))
            }
            read.outcome = outcome
            batches.finish(after: outcome)
        }
        thread.stackSize = 4 << 20
        thread.start()
        do {
            while var batch = try batches.take() {
                try batch.withBytes { try write($0) }
                batch.removeAll()
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
        var outcome: Result<Outcome, Error> = .failure(BoundedHandOff<BinaryCopyTuples>.Stopped())
    }
}
