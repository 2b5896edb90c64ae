import Crypto
import Foundation
import StoreExports

/// Reads one report file: unwraps `.gz` / `.zip` through `ReportArchive`, hashes the content and parses it. The
/// file is read once; the hash is over exactly the bytes parsed, and a file whose size, inode or modification time
/// changed during the read is refused (it was being written or replaced). Google earnings are read as a stream and
/// only tallied (rows, hash, rates): `ReportLoader.loadGoogleEarnings` stages them as they are read.
public enum ReportReader {
    /// The parsed file, or a `StoreReportError` naming file, line, column and reason. `afterReading` runs between the
    /// read and the second look at the file (tests change the file there).
    public static func read(_ file: FoundReportFile, afterReading: () throws -> Void = {}) throws -> ParsedReport {
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        if file.kind == .googleEarnings {
            let tally = try GoogleEarningsReading.read(file.path, afterReading: afterReading) { _ in }
            return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind), contentSHA256: tally.sha256,
                                content: .googleEarnings(tally))
        }
        let raw: [UInt8]
        let before = FileStamp.of(file.path)
        do {
            raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.path)))
        } catch {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "cannot read the file: \(error.localizedDescription)")
        }
        try afterReading()
        let after = FileStamp.of(file.path)
        guard let before, before == after, before.size == Int64(raw.count) else {
            throw StoreReportError(file: name, line: 1, column: 1, reason: "the file changed while it was read (before: "
                                   + "\(before?.description ?? "unreadable"); after: \(after?.description ?? "gone"); read \(raw.count) bytes); "
                                   + "nothing imported: import it again once it is complete")
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
        case .appleSubscription: content = .appleSubscription(try AppleSubscriptionReportParser.parse(bytes, file: label))
        case .appleSubscriptionEvent:
            content = .appleSubscriptionEvent(try AppleSubscriptionEventParser.parse(bytes, file: label))
        case .appleSummarySales: content = .appleSummarySales(try AppleSummarySalesParser.parse(bytes, file: label))
        case .googleEarnings: preconditionFailure("read as a stream above")
        case .googleEstimatedSales: content = .googleEstimatedSales(try GoogleEstimatedSalesParser.parse(bytes, file: label))
        }
        return ParsedReport(path: file.path, identity: ReportIdentity.of(name, kind: file.kind, paymentsLabel: paymentsLabel, contentSHA256: hash),
                            contentSHA256: hash, content: content)
    }
}
