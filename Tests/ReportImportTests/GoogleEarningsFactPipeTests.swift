import Foundation
import Postgres
@testable import ReportImport
import StoreExports
import Testing

/// The tuples read, folded and encoded on a thread of their own (`GoogleEarningsFactPipe`) are the bytes of the facts
/// folded in line, in the same order and numbering, across many batches; a writer that fails stops the reading and
/// its error is the one thrown.
@Suite struct GoogleEarningsFactPipeTests {
    /// A fixture's rows repeated until the file holds several batches of facts.
    static func largeFile() throws -> URL {
        let fixture = try Data(contentsOf: GoogleEarningsStagingTests.earningsFixture("earnings_201911_1234567890123-0.csv"))
        let lines = fixture.split(separator: 0x0A, omittingEmptySubsequences: false)
        let header = lines[0]
        let rows = lines.dropFirst().filter { !$0.isEmpty }
        var content = Data(header) + Data([0x0A])
        for _ in 0..<200 {
            for row in rows { content += Data(row) + Data([0x0A]) }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fact_pipe_\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("earnings_201911_1234567890123-0.csv")
        try content.write(to: file)
        return file
    }

    /// The batch size the tests hand over at (bytes of tuples): small, so that the file makes many batches.
    static let batchBytes = 4_096

    @Test func theTuplesAreTheFactsFoldedInLineInTheSameOrder() throws {
        let file = try Self.largeFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var inLine: [GoogleEarningsFact] = []
        var facts = GoogleEarningsFacts()
        let sequential = try GoogleEarningsReading.read(file.path) { row in try facts.add(row.foldedFields) { inLine.append($0) } }
        facts.finish { inLine.append($0) }
        var expected = BinaryCopyTuples()
        for (seq, fact) in inLine.enumerated() { fact.write(file: 42, seq: Int32(seq), to: &expected) }
        var piped: [UInt8] = []
        var batches = 0
        let outcome = try GoogleEarningsFactPipe.run(file.path, fileID: 42, handOverAt: Self.batchBytes) { bytes in
            piped.append(contentsOf: bytes)
            batches += 1
        }
        #expect(batches > 10, "many batches")
        #expect(piped.count > 10 * Self.batchBytes)
        #expect(outcome.facts == inLine.count)
        #expect(expected.withBytes { [UInt8]($0) } == piped)
        #expect(outcome.tally.rows == sequential.rows && outcome.tally.sha256 == sequential.sha256)
    }

    struct WriterFailed: Error {}

    @Test func aFailingWriterStopsTheReadingAndItsErrorIsThrown() throws {
        let file = try Self.largeFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var written = 0
        #expect(throws: WriterFailed.self) {
            _ = try GoogleEarningsFactPipe.run(file.path, fileID: 42, handOverAt: Self.batchBytes) { _ in
                written += 1
                if written == 2 { throw WriterFailed() }
            }
        }
        #expect(written == 2)
    }

    @Test func aDefectOfTheFileIsThrownAsTheReadingThrowsIt() throws {
        let file = try Self.largeFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not,a,row\n".utf8))
        try handle.close()
        var direct: StoreReportError?
        do { _ = try GoogleEarningsReading.read(file.path) { _ in } } catch let error as StoreReportError { direct = error }
        var piped: StoreReportError?
        do { _ = try GoogleEarningsFactPipe.run(file.path, fileID: 42, handOverAt: Self.batchBytes) { _ in } } catch let error as StoreReportError { piped = error }
        #expect(direct != nil && piped == direct, "\(String(describing: piped)) vs \(String(describing: direct))")
    }
}
