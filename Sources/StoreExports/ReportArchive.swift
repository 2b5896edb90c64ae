import Archive
import BillingCore

/// Unwraps the containers the stores deliver — a gzip stream (Apple's API) or a zip holding exactly one CSV
/// (Google's monthly reports) — and names a damaged container by the line and column its readable content reached.
public enum ReportArchive {
    /// The decompressed bytes of gzip data `bytes` read from `file`.
    public static func gunzip(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> [UInt8] {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        do {
            return try CompressedReader.gunzip(bytes, limits: limits)
        } catch {
            throw positioned(file, error)
        }
    }

    /// The one CSV member (name, bytes) of zip data `bytes` read from `file`; a second file or none rejects the archive.
    public static func singleCSV(_ bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws -> (name: String, bytes: [UInt8]) {
        guard !bytes.isEmpty else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        let members: [(String, [UInt8])]
        do {
            members = try CompressedReader.zipFiles(bytes, limits: limits)
        } catch {
            throw positioned(file, error)
        }
        guard let first = members.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no file in the zip") }
        if members.count > 1 {
            throw StoreReportError(file: file + "/" + members[1].0, line: 1, column: 1,
                                   reason: "a second file in the zip (after '\(Redaction.excerpt(first.0))'); expected exactly one CSV")
        }
        guard first.0.lowercased().hasSuffix(".csv") else {
            throw StoreReportError(file: file + "/" + first.0, line: 1, column: 1, reason: "the zip's only file is not a .csv")
        }
        return (first.0, first.1)
    }

    /// The failure at the end of its readable content (last line, the column after its last character).
    static func positioned(_ file: String, _ failure: CompressedReader.Failure) -> StoreReportError {
        let end = end(of: failure.readable)
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
