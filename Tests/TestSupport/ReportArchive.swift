import Archive
import BillingCore
import Foundation
import StoreExports

/// The tests' whole-file reading of the stores' containers — a gzip stream (Apple's API) or a zip holding exactly one
/// CSV (Google's monthly reports) — the reference a streamed import is compared with. It reads through the same
/// streaming readers the import uses (`CompressedReader.streamGzip`, `streamZipMember`, from a scratch copy of the
/// bytes), keeps the whole content, and names a damaged container by the line and column its readable content reached.
public enum ReportArchive {
    /// The decompressed bytes of gzip data `bytes` read from `file`.
    public static func gunzip(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> [UInt8] {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        guard bytes.starts(with: [0x1F, 0x8B]) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "not gzip data (no 1F 8B signature)")
        }
        var content: [UInt8] = []
        try scratch(bytes) { path in
            do {
                _ = try CompressedReader.streamGzip(path: path, compressedSize: bytes.count, limits: limits) { content += $0 }
            } catch let failure as CompressedReader.Failure {
                throw positioned(file, failure, content)
            }
        }
        return content
    }

    /// The one CSV member (name, bytes) of zip data `bytes` read from `file`; a second file or none rejects the archive.
    public static func singleCSV(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> (name: String, bytes: [UInt8]) {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        guard bytes.starts(with: [0x50, 0x4B]) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "not zip data (no PK signature)")
        }
        var content: [UInt8] = []
        var first: String?
        try scratch(bytes) { path in
            do {
                _ = try CompressedReader.streamZipMember(path: path, compressedSize: bytes.count, limits: limits, member: { name, index in
                    guard index == 0 else {
                        throw StoreReportError(file: file + "/" + name, line: 1, column: 1,
                                               reason: "a second file in the zip (after '\(Redaction.excerpt(first ?? ""))'); expected exactly one CSV")
                    }
                    guard name.lowercased().hasSuffix(".csv") else {
                        throw StoreReportError(file: file + "/" + name, line: 1, column: 1, reason: "the zip's only file is not a .csv")
                    }
                    first = name
                }, chunk: { content += $0 })
            } catch let failure as CompressedReader.Failure {
                throw positioned(file, failure, content)
            }
        }
        return (first ?? "", content)
    }

    /// Runs `body` on a scratch file holding `bytes`, removed afterwards.
    private static func scratch(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("report-archive-\(getpid())-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url.path)
    }

    /// The failure at the end of the content read before it (last line, the column after its last character).
    static func positioned(_ file: String, _ failure: CompressedReader.Failure, _ readable: [UInt8]) -> StoreReportError {
        let end = end(of: readable)
        return StoreReportError(file: failure.member.map { file + "/" + $0 } ?? file, line: end.line, column: end.column,
                                reason: failure.reason)
    }

    /// Where text `data` ends: its last line and the column after its last character.
    public static func end(of data: [UInt8]) -> (line: Int, column: Int) {
        var newlines = 0
        var lastNewline = -1
        for (index, byte) in data.enumerated() where byte == 0x0A {
            newlines += 1
            lastNewline = index
        }
        let characters = data[(lastNewline + 1)...].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (newlines + 1, characters + 1)
    }
}
