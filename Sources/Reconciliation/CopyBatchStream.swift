import CompactMemory
import Foundation
import Postgres

/// Rows of one binary `COPY`, gathered on the stream's thread: each tuple read into a row whose texts are copied into
/// the batch's bytes.
protocol CopyBatch: Sendable {
    /// One tuple as the reader uses it.
    associatedtype Row
    /// An empty batch.
    init()
    /// The rows in arrival order.
    var rows: [Row] { get }
    /// The bytes the rows' texts are in.
    var bytes: [UInt8] { get }
    /// Adds the tuple `message` (its fields `fields`, the `number`th of the stream, from 1); throws when it is not
    /// a row this batch reads.
    mutating func add(_ message: UnsafeRawBufferPointer, fields: [Range<Int>?], number: Int) throws
}

/// One binary `COPY … TO STDOUT` read on a connection and a thread of its own while the caller takes its rows: the
/// tuples are read into batches (`Batch`, `batchRows` rows each, at most `depth` waiting), so the server sends as fast
/// as it produces, the caller never waits on the socket, and memory holds a few batches whatever the result's size.
/// Reconcile reads the two sides of a Google month this way, both at once, and merges them.
final class CopyBatchStream<Batch: CopyBatch>: @unchecked Sendable {
    /// Rows per batch and batches waiting at most.
    static var batchRows: Int { 4_096 }
    static var depth: Int { 4 }

    private let batches = BoundedHandOff<Batch>(depth: depth)
    /// The batch being read by the caller and its next row.
    private var current = Batch()
    private var next = 0

    /// Starts `sql` (a binary `COPY … TO STDOUT`) on a new connection of `configuration`; with `sortedBy`, the rows
    /// are handed on in the order of those keys, sorted here (`BinaryCopySorter`) as they arrive rather than by the
    /// server, and the first one only once the last has arrived.
    init(configuration: PostgresConfiguration, sql: String, sortedBy keys: [BinaryCopySorter.Key]? = nil) {
        let thread = Thread { [self] in run(configuration: configuration, sql: sql, keys: keys) }
        thread.stackSize = 1 << 22
        thread.start()
    }

    private func run(configuration: PostgresConfiguration, sql: String, keys: [BinaryCopySorter.Key]?) {
        let outcome = Result<Void, Error> {
            var batch = Batch()
            var number = 0
            func add(_ message: UnsafeRawBufferPointer, _ fields: [Range<Int>?]) throws {
                number += 1
                try batch.add(message, fields: fields, number: number)
                if batch.rows.count >= Self.batchRows {
                    try batches.put(batch)
                    batch = Batch()
                }
            }
            let sorter = keys.map { BinaryCopySorter(keys: $0) }
            do {
                let connection = try PostgresConnection(configuration: configuration)
                defer { connection.close() }
                var reader = BinaryCopyReader()
                try connection.copyOutMessages(sql) { message in
                    guard try reader.read(message) else { return }
                    if let sorter { try sorter.add(message, fields: reader.fields) } else { try add(message, reader.fields) }
                }
            }
            if let sorter {
                var reader = BinaryCopyReader.afterHeader()
                try sorter.finish { tuple in
                    if try reader.read(tuple) { try add(tuple, reader.fields) }
                }
            }
            if !batch.rows.isEmpty { try batches.put(batch) }
        }
        batches.finish(after: outcome)
    }

    /// Calls `body` with the next row and the bytes its texts are in, without taking it (nil: no row is left).
    func peek<R>(_ body: (Batch.Row, UnsafeRawBufferPointer) throws -> R) throws -> R? {
        while next >= current.rows.count {
            guard let batch = try batches.take() else { return nil }
            current = batch
            next = 0
        }
        let row = current.rows[next]
        return try current.bytes.withUnsafeBytes { try body(row, $0) }
    }

    /// Takes the row `peek` showed.
    func advance() {
        next += 1
    }

    /// Stops the thread (dropping what is left) and waits for it to close its connection.
    func close() {
        batches.stop()
        batches.waitUntilFinished()
    }
}
