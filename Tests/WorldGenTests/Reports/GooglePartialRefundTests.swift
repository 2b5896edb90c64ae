import Foundation
import Postgres
import Testing
@testable import WorldGen

/// Google partial refunds: the store gave back half of some refunded charges (rounded down to a whole minor unit).
/// The earnings files carry `Charge refund` / `Google fee refund` / `Tax refund` rows of that half with `Refund
/// Type` `Partial`; the database and the expected metrics keep the whole charge refunded (what voided purchases,
/// which carry no amount, let the pipeline record); the manifest lists each such refund.
@Suite struct GooglePartialRefundTests {
    /// Google only, no test purchases and no faults, so every refund is in the history and in the expected metrics.
    static let world: Result<(GeneratedWorld, StoreReportSet), Error> = Result {
        let world = try World.generate(WorldOptions(seed: 29, subscriptions: 3_000, months: 4, appleShare: 0, testShare: 0))
        return (world, try StoreReports.render(world, shares: .none))
    }

    /// Earnings rows by order and Transaction Type: (Refund Type, amount in buyer currency).
    static func earnings(_ reports: StoreReportSet) throws -> [String: [String: (String, Int64)]] {
        var result: [String: [String: (String, Int64)]] = [:]
        for (path, bytes) in reports.files where path.hasPrefix("google/earnings/") {
            let table = try ReportFileReader.zippedCSV(bytes).1
            for index in table.rows.indices {
                let row = table.row(index)
                let type = row["Transaction Type"] ?? ""
                guard type.hasSuffix(" refund"), row["Refund Type"] != "" else { continue }
                var amount = try Micros.parse(row["Amount (Buyer Currency)"] ?? "")
                amount += result[row["Description"] ?? ""]?[type]?.1 ?? 0 // a split tax: two Tax refund rows
                result[row["Description"] ?? "", default: [:]][type] = (row["Refund Type"] ?? "", amount)
            }
        }
        return result
    }

    @Test func filesCarryTheHalfAndTheManifestListsIt() throws {
        let (world, reports) = try Self.world.get()
        let entries = ReportLedger.entries(world)
        let charges = Dictionary(entries.filter { $0.kind == .charge }.compactMap { e in e.orderId.map { ($0, e) } },
                                 uniquingKeysWith: { first, _ in first })
        let refunds = entries.filter { $0.kind == .refund }
        let listed = Dictionary(uniqueKeysWithValues: reports.discrepancies.filter { $0.kind == .partialRefund }.map { ($0.transactionKey, $0) })
        let rows = try Self.earnings(reports)
        var partial = 0
        for refund in refunds {
            let order = try #require(refund.orderId)
            let charge = try #require(charges[order])
            let written = try #require(rows[order], "no refund rows for \(order)")
            guard let discrepancy = listed[refund.transactionKey] else {
                #expect(written["Charge refund"]?.0 == "Full" && written["Charge refund"]?.1 == -charge.amountMicros, "\(order)")
                continue
            }
            partial += 1
            let half = try #require(written["Charge refund"])
            let unit: Int64 = charge.currency == "JPY" || charge.currency == "KRW" ? 1_000_000 : 10_000
            #expect(half.0 == "Partial" && written["Google fee refund"]?.0 == "Partial", "\(order)")
            #expect(-half.1 <= charge.amountMicros / 2 && -half.1 > charge.amountMicros / 2 - unit && half.1 % unit == 0, "\(order) \(half.1)")
            let (tax, fee) = ReportProducts.googleSplit(-half.1, country: charge.country)
            #expect(written["Google fee refund"]?.1 == fee, "\(order)")
            #expect((written["Tax refund"]?.1 ?? 0) == tax && (tax == 0 || written["Tax refund"]?.0 == "Partial"), "\(order)")
            #expect(discrepancy.provider == "GOOGLE" && discrepancy.orderId == order)
            #expect(discrepancy.observedKind == .refundMissingInDatabase)
            #expect(discrepancy.databaseMicros == -charge.amountMicros && discrepancy.reportMicros == half.1)
            #expect(discrepancy.reportPeriod == discrepancy.databasePeriod)
        }
        #expect(partial == listed.count, "listed partial refunds that are not refunds of the ledger")
        #expect(partial > 0 && partial * 10 < refunds.count, "partial \(partial) of \(refunds.count) refunds")
    }

    /// The database keeps the whole charge refunded, and the expected metrics (from the stories) agree with it.
    @Test func historyAndExpectedMetricsKeepTheWholeRefund() throws {
        let (world, reports) = try Self.world.get()
        var history: [String: Int64] = [:]
        for subscription in world.subscriptions {
            for row in subscription.rows.transactions where row.record.eventType == .refunded {
                let amount = try #require(row.record.amount, "\(row.record.transactionKey)")
                history[amount.currencyCode, default: 0] -= amount.micros
            }
        }
        var expected: [String: Int64] = [:]
        for row in WorldWriter.expectedMetrics(world).rows where row.provider == "GOOGLE" && row.view == "local" {
            expected[row.currency, default: 0] += row.refundsByRefundMonthMicros ?? 0
        }
        #expect(expected.filter { $0.value != 0 } == history, "expected metrics \(expected), history \(history)")
        let partial = reports.discrepancies.filter { $0.kind == .partialRefund }
        #expect(!partial.isEmpty)
        for discrepancy in partial {
            let row = world.subscriptions.flatMap(\.rows.transactions).first { $0.record.transactionKey == discrepancy.transactionKey }
            #expect(row?.record.amount?.micros == discrepancy.databaseMicros, "\(discrepancy.transactionKey)")
        }
    }
}
