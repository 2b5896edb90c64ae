import Foundation
import JobKit
import Postgres

/// A night's store of its spans (`SpanStore`) written on a connection of its own, on a thread of its own, from the end
/// of the second session on (while the job's session fills the movements and writes the files), and committed once the
/// files are written (rolled back if the run fails): storing after the last file took a 1M-subscription night about 2 s
/// on one core (Reports/README.md, "Storing only the spans that differ, beside the files").
/// The connection gets copies of the few run tables a night's store reads (`SpanStore.nightTables`: its touched
/// subscriptions, their digests, span hashes, differing spans and trials, and the snapshot parts: tens of thousands of
/// rows), so it reads nothing of the run's snapshot; what it writes is what the job's session would have written.
final class SpanStorer: @unchecked Sendable {
    private let connection: PostgresConnection
    private let store: SpanStore
    private let beside: @Sendable (PostgresConnection) throws -> Void
    /// Waited for on the storer's thread before it writes anything (the second session's end).
    private let after: @Sendable () throws -> Void
    private let condition = NSCondition()
    /// nil until the run's end; then whether to commit what was written (false: the run failed).
    private var keep: Bool?
    private var finished = false
    private var failure: (any Error)?
    /// The seconds the storing transaction's statements took, once done.
    private(set) var seconds: TimeInterval = 0
    /// The query of the run's span counts (`StoredSpans.countsQuery`), run here before storing, and its result.
    private let countsQuery: (sql: String, parameters: [String])
    private var counted: (recomputed: Int, reused: Int)?

    private init(connection: PostgresConnection, store: SpanStore, countsQuery: (sql: String, parameters: [String]),
                 after: @escaping @Sendable () throws -> Void, beside: @escaping @Sendable (PostgresConnection) throws -> Void) {
        self.connection = connection
        self.store = store
        self.countsQuery = countsQuery
        self.after = after
        self.beside = beside
    }

    /// Opens the connection (`connect`), copies the run's tables of `store` from `database` (the job's session, its
    /// spans filled) into it and starts its thread, which waits for `after` (the second session's end: it writes on
    /// the core that session frees, not beside it and the job's fill) and then writes, after counting the spans
    /// recomputed and reused (`countsQuery`, on the copies); `beside` adds what the run stores beside the spans
    /// (waiting, on that thread, for the sessions that computed it).
    static func start(_ store: SpanStore, countsQuery: (sql: String, parameters: [String]), from database: PostgresConnection,
                      connect: () throws -> PostgresConnection, after: @escaping @Sendable () throws -> Void,
                      beside: @escaping @Sendable (PostgresConnection) throws -> Void) throws -> SpanStorer {
        let connection = try SnapshotSession.connect(connect, for: "storing spans")
        do {
            try StoredMonths.failing("storing spans: copying the run's tables") {
                for table in SpanStore.nightTables {
                    try connection.execute("CREATE TEMP TABLE \(table.name) (\(table.columns))")
                    _ = try connection.copyIn("COPY pg_temp.\(table.name) FROM STDIN (FORMAT binary)") { copy in
                        _ = try database.copyOutMessages("COPY pg_temp.\(table.name) TO STDOUT (FORMAT binary)") { try copy.writeRaw($0) }
                    }
                    try connection.execute("ANALYZE pg_temp.\(table.name)")
                }
            }
        } catch {
            connection.close()
            throw error
        }
        let storer = SpanStorer(connection: connection, store: store, countsQuery: countsQuery, after: after, beside: beside)
        let thread = Thread { storer.run() }
        thread.name = "span-storer"
        thread.start()
        return storer
    }

    /// Ends the run: what was written is committed when `keep` (the files are written), otherwise rolled back. `wait`
    /// waits for it.
    func end(keep: Bool) {
        condition.lock()
        self.keep = keep
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the connection to end (`end` first) and throws its error, if any; returns the span counts.
    @discardableResult
    func wait() throws -> (recomputed: Int, reused: Int) {
        condition.lock()
        while !finished { condition.wait() }
        let (failure, counted) = (self.failure, self.counted)
        condition.unlock()
        if let failure { throw failure }
        return counted ?? (0, 0)
    }

    /// Thrown inside the transaction when the run did not keep it: rolls it back.
    private struct NotKept: Error {}

    private func run() {
        var failure: (any Error)?
        do {
            try after()
            try StoredMonths.failing("storing spans") {
                let counts = try StoredSpans.counts(countsQuery, on: connection)
                condition.lock()
                counted = counts
                condition.unlock()
                try connection.transaction { db in
                    let began = Date()
                    try store.write(db, beside: beside)
                    seconds = Date().timeIntervalSince(began)
                    condition.lock()
                    while keep == nil { condition.wait() }
                    let kept = keep == true
                    condition.unlock()
                    if !kept { throw NotKept() }
                }
            }
        } catch is NotKept {
        } catch {
            failure = error
        }
        connection.close()
        condition.lock()
        self.failure = failure
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
