import Archive
import Foundation
import Testing

/// Decompression on its own thread: the same bytes in the same order as the plain stream, whatever the batch, and
/// a reader that stops (throws) ends the thread and gets its own error back.
@Suite struct PipelinedZipStreamTests {
    func fixture() throws -> (path: String, size: Int) {
        let bytes = try ReportFixtures.bytes("google/earnings_201911_1234567890123-0.zip")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipelined-\(UUID().uuidString).zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes.count)
    }

    struct Stop: Error {}

    @Test(arguments: [1, 7, 4_096, 1 << 19]) func sameBytesAsThePlainStream(batch: Int) throws {
        let (path, size) = try fixture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var plain: [UInt8] = [], names: [String] = []
        let expected = try CompressedReader.streamZipMember(path: path, compressedSize: size, member: { name, _ in names.append(name) },
                                                            chunk: { plain += $0 })
        var piped: [UInt8] = [], pipedNames: [String] = [], chunks = 0
        let member = try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, batch: batch,
                                                                   member: { name, _ in pipedNames.append(name) },
                                                                   chunk: { piped += $0; chunks += 1 })
        #expect(member == expected && piped == plain && pipedNames == names && !plain.isEmpty)
        #expect(batch > plain.count || chunks > 1)
    }

    @Test func aReaderThatStopsEndsTheThread() throws {
        let (path, size) = try fixture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var chunks = 0
        #expect(throws: Stop.self) {
            try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, batch: 1, member: { _, _ in }, chunk: { _ in
                chunks += 1
                if chunks == 3 { throw Stop() }
            })
        }
        #expect(chunks == 3)
        #expect(throws: Stop.self) {
            try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, member: { _, _ in throw Stop() }, chunk: { _ in
                Issue.record("no chunk after a refused member")
            })
        }
    }

    @Test func aLimitFailsAfterTheBytesBeforeIt() throws {
        let (path, size) = try fixture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let limits = ArchiveLimits(maxBytes: 100, maxRatio: 1_000_000, ratioFloor: 0)
        var plain = 0, piped = 0
        let expected = try #require(failure { try CompressedReader.streamZipMember(path: path, compressedSize: size, limits: limits,
                                                                                   member: { _, _ in }, chunk: { plain += $0.count }) })
        let found = try #require(failure { try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, limits: limits,
                                                                                         member: { _, _ in }, chunk: { piped += $0.count }) })
        #expect(found.reason == expected.reason && found.member == expected.member && piped == plain)
    }

    func failure(_ body: () throws -> Void) -> CompressedReader.Failure? {
        do { try body() } catch let failure as CompressedReader.Failure { return failure } catch {}
        return nil
    }
}
