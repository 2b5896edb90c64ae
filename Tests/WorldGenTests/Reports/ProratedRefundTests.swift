import Foundation
import Testing
@testable import WorldGen

/// Apple's prorated refunds (`REFUND_PRORATED`, half the charge) agree everywhere the world states them: the history
/// rows the projection wrote, the expected metrics computed from the stories, and the report files.
@Suite struct ProratedRefundTests {
    /// Apple only, no test purchases and no faults, so every refund is in the history and in the expected metrics.
    static let world: Result<GeneratedWorld, Error> = Result {
        try World.generate(WorldOptions(seed: 23, subscriptions: 3_000, months: 4, appleShare: 1, testShare: 0))
    }

    @Test func historyRowsExpectedMetricsAndFilesCarryTheHalf() throws {
        let world = try Self.world.get()
        let entries = ReportLedger.entries(world).filter(\.isApple)
        let charges = Dictionary(entries.filter { $0.kind == .charge }.map { ($0.transactionKey, $0) }, uniquingKeysWith: { first, _ in first })
        var prorated = 0, full = 0
        var refundedByCurrency: [String: Int64] = [:]
        for refund in entries where refund.kind == .refund {
            let charge = try #require(charges[String(refund.transactionKey.dropLast(":REFUNDED".count))])
            refundedByCurrency[refund.currency, default: 0] += refund.amountMicros
            if ProratedRefund.applePercentage(atMs: refund.atMs, chargeMicros: charge.amountMicros, currency: charge.currency) != nil {
                #expect(refund.amountMicros * 2 == charge.amountMicros, "\(refund.transactionKey)")
                prorated += 1
            } else {
                #expect(refund.amountMicros == charge.amountMicros, "\(refund.transactionKey)")
                full += 1
            }
        }
        #expect(prorated > 0 && full > 0, "prorated \(prorated), full \(full)")

        // The expected metrics (from the stories) refund exactly what the history rows refund, per currency.
        var expected: [String: Int64] = [:]
        for row in WorldWriter.expectedMetrics(world).rows where row.provider == "APPLE" && row.view == "local" {
            expected[row.currency, default: 0] += row.refundsByRefundMonthMicros ?? 0
        }
        #expect(expected.filter { $0.value != 0 } == refundedByCurrency, "expected metrics \(expected), history \(refundedByCurrency)")

        // The files carry the ledger, halves included (return rows at half the charge's price).
        let reports = try StoreReports.render(world, shares: .none)
        let ledger = try ReportTotalsTests.expectedEntries(ReportLedger.entries(world), reports.discrepancies)
        let products = ReportProducts(catalogue: world.catalogue)
        let files = try ReportTotalsTests.appleFinancialRows(reports, consolidated: true)
        #expect(files == ReportTotalsTests.appleFinancialRows(ledger, products))
        #expect(try ReportTotalsTests.subscriberRows(reports) == ReportTotalsTests.subscriberRows(ledger, products))
    }
}
