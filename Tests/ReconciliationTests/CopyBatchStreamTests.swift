import Postgres
@testable import Reconciliation
import TestSupport
import Testing

/// `CopyBatchStream` reads a binary COPY on a connection and a thread of its own: every row arrives once, in the
/// server's order, across batch boundaries; a row its batch cannot read stops the stream with that row's error, and
/// closing early ends the thread.
@Suite struct CopyBatchStreamTests {
    /// A batch of int8 values.
    struct Numbers: CopyBatch {
        var bytes: [UInt8] = []
        var rows: [Int64] = []

        mutating func add(_ message: UnsafeRawBufferPointer, fields: [Range<Int>?], number: Int) throws {
            guard fields.count == 1, let field = fields[0], let value = BinaryCopyReader.int64(message, field) else {
                throw Refused(number: number)
            }
            rows.append(value)
        }
    }

    /// Int8 values, the second batch's sixth refused.
    struct RefusingNumbers: CopyBatch {
        static let refused = CopyBatchStream<Numbers>.batchRows + 6
        var bytes: [UInt8] = []
        var rows: [Int64] = []

        mutating func add(_ message: UnsafeRawBufferPointer, fields: [Range<Int>?], number: Int) throws {
            guard number != Self.refused, let field = fields.first ?? nil, let value = BinaryCopyReader.int64(message, field) else {
                throw Refused(number: number)
            }
            rows.append(value)
        }
    }

    struct Refused: Error, Equatable {
        let number: Int
    }

    static let count = 3 * CopyBatchStream<Numbers>.batchRows + 17

    private static func read<Batch: CopyBatch>(_ stream: CopyBatchStream<Batch>) throws -> [Int64] where Batch.Row == Int64 {
        var values: [Int64] = []
        while let value = try stream.peek({ row, _ in row }) {
            values.append(value)
            stream.advance()
        }
        return values
    }

    @Test func everyRowArrivesOnceInOrderAcrossBatches() throws {
        let roles = try RoleDatabase.fresh("copy_batch_stream")
        let stream = CopyBatchStream<Numbers>(configuration: roles.superuser, sql:
            "COPY (SELECT g::int8 FROM generate_series(1, \(Self.count)) g ORDER BY g DESC) TO STDOUT (FORMAT binary)")
        defer { stream.close() }
        #expect(try Self.read(stream) == Array((1...Int64(Self.count)).reversed()))
        #expect(try stream.peek({ row, _ in row }) == nil)
    }

    @Test func aRowTheBatchCannotReadStopsTheStream() throws {
        let roles = try RoleDatabase.fresh("copy_batch_stream_refused")
        let stream = CopyBatchStream<RefusingNumbers>(configuration: roles.superuser, sql:
            "COPY (SELECT g::int8 FROM generate_series(1, \(Self.count)) g) TO STDOUT (FORMAT binary)")
        defer { stream.close() }
        #expect(throws: Refused(number: RefusingNumbers.refused)) { _ = try Self.read(stream) }
    }

    @Test func closingBeforeTheEndEndsTheThread() throws {
        let roles = try RoleDatabase.fresh("copy_batch_stream_closed")
        let stream = CopyBatchStream<Numbers>(configuration: roles.superuser, sql:
            "COPY (SELECT g::int8 FROM generate_series(1, \(Self.count)) g) TO STDOUT (FORMAT binary)")
        #expect(try stream.peek({ row, _ in row }) == 1)
        stream.close()
    }
}
