import Archive
import BillingCore
import Foundation

/// Reads a Google Play earnings zip from disk as a stream — decompressing, splitting and reading rows chunk by
/// chunk — with the checks `ReportArchive.singleCSV` and `GoogleEarningsParser` make on the whole file: not empty,
/// a zip, exactly one member and a `.csv`, within the archive limits; every row as the parser reads it.
public enum GoogleEarningsStream {
    /// Streams the earnings rows of the zip at `path` (named `file` in errors) to `emit`; returns the member's name
    /// and the number of rows.
    @discardableResult
    public static func read(path: String, file: String, limits: ArchiveLimits = .standard,
                            _ emit: (GoogleEarningsEntry) throws -> Void) throws -> (member: String, rows: Int) {
        try readFields(path: path, file: file, limits: limits) { try emit(GoogleEarningsEntry($0)) }
    }

    /// Streams the earnings rows of the zip at `path` (named `file` in errors) to `emit` as fields lent for the
    /// call; returns the member's name and the number of rows.
    @discardableResult
    public static func readFields(path: String, file: String, limits: ArchiveLimits = .standard,
                                  _ emit: (GoogleEarningsFields) throws -> Void) throws -> (member: String, rows: Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "cannot open the file")
        }
        let signature: [UInt8]
        let size: Int
        do {
            signature = [UInt8](try handle.read(upToCount: 2) ?? Data())
            size = Int(try handle.seekToEnd())
            try handle.close()
        } catch {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "cannot read the file: \(error)")
        }
        guard size > 0 else { throw StoreReportError(file: file, line: 1, column: 1, reason: "empty file") }
        guard signature == [0x50, 0x4B] else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "not zip data (no PK signature)")
        }
        var scanner: GoogleEarningsScanner?
        var first = ""
        do {
            // Decompression runs a few chunks ahead on its own thread; the rows are read here, in order.
            let member = try CompressedReader.streamZipMemberPipelined(path: path, compressedSize: size, limits: limits, member: { name, index in
                guard index == 0 else {
                    throw StoreReportError(file: file + "/" + name, line: 1, column: 1,
                                           reason: "a second file in the zip (after '\(Redaction.excerpt(first))'); expected exactly one CSV")
                }
                guard name.lowercased().hasSuffix(".csv") else {
                    throw StoreReportError(file: file + "/" + name, line: 1, column: 1, reason: "the zip's only file is not a .csv")
                }
                first = name
                scanner = GoogleEarningsScanner(file: file + "/" + name)
            }, chunk: { bytes in
                try scanner?.feedFields(bytes, emit)
            })
            try scanner?.finishFields(emit)
            return (member.name, scanner?.rows ?? 0)
        } catch let failure as CompressedReader.Failure {
            let position = failure.member != nil ? scanner?.position ?? (1, 1) : (1, 1)
            throw StoreReportError(file: failure.member.map { file + "/" + $0 } ?? file, line: position.0, column: position.1,
                                   reason: failure.reason)
        }
    }
}
