import Foundation
import StoreExports

/// Reads a Google Play earnings file (the monthly zip or its CSV) once, as a stream: each row is read in place
/// (`GoogleEarningsScanner.feed`, as the whole-file parser reads it) and handed on as soon as it is read, the
/// content hashed as it goes by, the month's exchange rates gathered. Memory stays that of one chunk and one row
/// whatever the file's size; a defect is reported as the whole-file parser reports it, after the file's last byte.
enum GoogleEarningsReading {
    /// Streams the rows of `path` to `row`; throws a `StoreReportError` naming file, line, column and reason (rows
    /// already handed on are then to be discarded: the caller stages inside a transaction).
    static func read(_ path: String, afterReading: () throws -> Void = {},
                     row: (GoogleEarningsCells) throws -> Void) throws -> GoogleEarningsTally {
        var scanner = GoogleEarningsScanner(file: URL(fileURLWithPath: path).lastPathComponent)
        var rates = GoogleEarningsRates()
        var rows = 0
        func emit(_ parsed: GoogleEarningsCells) throws {
            rows += 1
            rates.add(parsed)
            try row(parsed)
        }
        let content = try ReportStream.read(path, afterReading: afterReading, label: { scanner = GoogleEarningsScanner(file: $0) },
                                            position: { scanner.position }, chunk: { try scanner.feed($0, emit) },
                                            finish: { try scanner.finish(emit) })
        return GoogleEarningsTally(sha256: content.sha256, rows: rows, rates: rates)
    }
}

/// What reading a Google earnings file found: the content's hash, the number of rows and the month's exchange rates.
public struct GoogleEarningsTally: Sendable {
    /// SHA-256 (hex) of the decompressed content.
    public let sha256: String
    /// Rows read.
    public let rows: Int
    /// The latest rate per currency pair.
    public let rates: GoogleEarningsRates
}
