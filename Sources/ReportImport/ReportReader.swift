import Crypto
import Foundation
import StoreExports

/// Reads one report file once, as a stream (`ReportStream`: plain, gzip or zip), the hash over exactly the bytes
/// parsed; a file whose size, inode or modification time changed during the read is refused (it was being written or
/// replaced). Google earnings and estimated sales, Apple's financial reports and Sales and Trends reports (Subscriber,
/// Subscription, Subscription Event, Summary Sales) are parsed row by row and only tallied (rows, hash, rates):
/// `ReportLoader` stages them as they are read. Apple's payments summaries, a few dozen lines by nature (one per region),
/// are parsed whole, up to `wholeFileLimit`.
public enum ReportReader {
    /// The most content (after decompression) of an Apple payments summary, which is parsed whole: 8 MiB (real ones
    /// are a few kilobytes; parsing holds several times the content).
    public static let wholeFileLimit = 8 << 20

    /// The parsed file, or a `StoreReportError` naming file, line, column and reason. `afterReading` runs between the
    /// read and the second look at the file (tests change the file there).
    public static func read(_ file: FoundReportFile, afterReading: () throws -> Void = {}) throws -> ParsedReport {
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        if file.kind == .googleEarnings {
            let tally = try GoogleEarningsReading.read(file.path, afterReading: afterReading) { _ in }
            return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind), contentSHA256: tally.sha256,
                                content: .googleEarnings(tally))
        }
        if AppleReportStaging.streams(file.kind) {
            let tally = try AppleReportStaging.read(file.path, kind: file.kind, afterReading: afterReading) { _ in }
            return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind), contentSHA256: tally.sha256,
                                content: .appleSalesAndTrends(tally))
        }
        if file.kind == .googleEstimatedSales {
            let tally = try GoogleEstimatedSalesStaging.read(file.path, afterReading: afterReading) { _ in }
            return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind), contentSHA256: tally.sha256,
                                content: .googleEstimatedSales(tally))
        }
        let limit = wholeFileLimit
        var bytes: [UInt8] = []
        var label = name
        let content = try ReportStream.read(file.path, afterReading: afterReading, label: { label = $0 },
                                            position: { end(of: bytes) }) { chunk in
            guard bytes.count + chunk.count <= limit else {
                let end = end(of: bytes)
                throw StoreReportError(file: label, line: end.line, column: end.column,
                                       reason: "content larger than \(limit) bytes, the limit for this report, which is read whole "
                                       + "(docs/STORE_REPORTS.md, \"Limits\")")
            }
            bytes.append(contentsOf: chunk)
        }
        label = content.label
        let hash = content.sha256
        let parsed: ParsedReport.Content
        var paymentsLabel: String?
        switch file.kind {
        case .applePayments:
            let summary = try ApplePaymentsSummaryParser.parse(bytes, file: label)
            paymentsLabel = summary.periodLabel
            parsed = .applePayments(summary)
        case .appleFinancial, .appleSubscriber, .appleSubscription, .appleSubscriptionEvent, .appleSummarySales, .googleEarnings, .googleEstimatedSales:
            preconditionFailure("read as a stream above")
        }
        return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind, paymentsLabel: paymentsLabel, contentSHA256: hash),
                            contentSHA256: hash, content: parsed)
    }

    /// Where text `data` ends: its last line and the column after its last character (for a container that breaks off).
    static func end(of data: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in data {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
