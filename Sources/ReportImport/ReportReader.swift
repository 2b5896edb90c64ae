import Crypto
import Foundation
import StoreExports

/// Reads one report file: unwraps `.gz` / `.zip` through `ReportArchive`, hashes the content and parses it.
public enum ReportReader {
    /// The parsed file, or a `StoreReportError` naming file, line, column and reason.
    public static func read(_ file: FoundReportFile) throws -> ParsedReport {
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        let raw: [UInt8]
        do {
            raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
        } catch {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(error.localizedDescription)")
        }
        let bytes: [UInt8]
        var label = name
        switch StoreReportKind.container(of: name) {
        case .plain: bytes = raw
        case .gzip: bytes = try ReportArchive.gunzip(raw, file: name)
        case .zip:
            let member = try ReportArchive.singleCSV(raw, file: name)
            bytes = member.bytes
            label = name + "/" + member.name
        }
        let hash = SHA256Digest.hex(bytes)
        let content: ParsedReport.Content
        var paymentsLabel: String?
        switch file.kind {
        case .appleFinancial: content = .appleFinancial(try AppleFinancialReportParser.parse(bytes, file: label))
        case .applePayments:
            let summary = try ApplePaymentsSummaryParser.parse(bytes, file: label)
            paymentsLabel = summary.periodLabel
            content = .applePayments(summary)
        case .appleSubscriber: content = .appleSubscriber(try AppleSubscriberReportParser.parse(bytes, file: label))
        case .appleSummarySales: content = .appleSummarySales(try AppleSummarySalesParser.parse(bytes, file: label))
        case .googleEarnings: content = .googleEarnings(try GoogleEarningsParser.parse(bytes, file: label))
        case .googleEstimatedSales: content = .googleEstimatedSales(try GoogleEstimatedSalesParser.parse(bytes, file: label))
        }
        return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind, paymentsLabel: paymentsLabel, contentSHA256: hash),
                            contentSHA256: hash, content: content)
    }
}
