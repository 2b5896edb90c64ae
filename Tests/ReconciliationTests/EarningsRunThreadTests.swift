import Archive
import Foundation
@testable import Reconciliation
import StoreExports
import Testing

/// An earnings file folded into runs on its own thread and absorbed by the report side gives the units the staged
/// path's `GoogleEarningsFold` gives for the same rows — an order's rows spread over the file, refunds full and
/// partial, a rebill set, several tax rows, whatever the batch size — and a defective row is thrown after the runs
/// of every row before it, as the stream gives them without the thread.
@Suite struct EarningsRunThreadTests {
    static let header = "Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,"
        + "Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,"
        + "Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency),Base Plan ID,"
        + "Offer ID,Group ID,First USD 1M Eligible,Service Fee %,Fee Description,Promotion ID"

    /// One earnings row.
    static func row(_ order: String, _ type: String, _ refund: String = "", amount: String, product: String = "premium_monthly",
                    country: String = "DE", currency: String = "EUR", time: String = "11:02:10 AM PDT") -> String {
        "\(order),\"Oct 3, 2026\",\(time),,\(type),\(refund),Premium,\(product),1,monthly,,\(country),,,\(currency),\(amount),1.0,"
            + "\(currency),\(amount),monthly,,1,Yes,15,SUBSCRIPTIONS,"
    }

    /// Rows of `orders` orders, some of them coming back later in the file.
    static func rows(orders: Int) -> [String] {
        var rows: [String] = []
        for index in 0..<orders {
            let order = "GPA.\(3_300 + index)-0000-0000-00001"
            rows += [row(order, "Charge", amount: "4.99"), row(order, "Google fee", amount: "-0.75"), row(order, "Tax", amount: "-0.80")]
            if index % 4 == 1 {
                rows += [row(order, "Charge refund", "Full", amount: "-4.99"), row(order, "Google fee refund", "Full", amount: "0.75")]
            }
            if index % 6 == 2 { rows += [row(order, "Tax", amount: "-0.05", time: "1:00:00 AM PDT")] }
            if index % 9 == 3 {
                // A rebill set: the charge reversed with an empty Refund Type, then billed again.
                rows += [row(order, "Charge refund", amount: "-4.99"), row(order, "Charge rebill", amount: "4.99")]
            }
            if index % 5 == 4, index >= 10 {
                // An order seen before comes back: a partial refund of an earlier order, in another currency's text.
                let earlier = "GPA.\(3_300 + index - 10)-0000-0000-00001"
                rows += [row(earlier, "Charge refund", "Partial", amount: "-2.49", product: "other", country: "FR"),
                         row(earlier, "Tax", amount: "-0.10", product: "third", country: "")]
            }
        }
        return rows
    }

    static func zip(_ rows: [String], broken: Int? = nil) throws -> String {
        var csv = header + "\n"
        for (index, row) in rows.enumerated() {
            csv += (index + 2 == broken ? row.replacingOccurrences(of: ",4.99,", with: ",4,99x,") : row) + "\n"
        }
        let bytes = try ZipArchive.make([("PlayApps_202610.csv", Array(csv.utf8))], mtime: 1_790_000_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [1, 2, 7, 2048]) func runsGiveTheUnitsOfTheFold(batchSize: Int) throws {
        let rows = Self.rows(orders: 600)
        let path = try Self.zip(rows)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: [UnitKey: UnitSide] = [:]
        // The staged path's fold of the same rows, as they would be read back from the staging table.
        try GoogleEarningsStream.read(path: path, file: "runs.zip") { entry in
            GoogleEarningsFold.add(GoogleEarningsLine(order: entry.orderID, transactionType: entry.transactionType.raw,
                                                      refundType: entry.refundType?.rawValue ?? "", productId: entry.productID,
                                                      country: entry.buyerCountry, currency: entry.buyerCurrency,
                                                      amountMicros: entry.amountBuyerMicros, at: entry.transactionEpochSeconds),
                                   to: &expected)
        }
        let orders = SharedOrders()
        var report = CompactReport(orders: orders)
        var batches = 0
        let outcome = try EarningsRunThread.read(path: path, file: "runs.zip", batchSize: batchSize) {
            report.add($0)
            batches += 1
        }
        report.texts = outcome.texts
        #expect(outcome.rows == rows.count && outcome.member == "PlayApps_202610.csv")
        #expect(batchSize > 600 || batches > 1)
        var found: [UnitKey: UnitSide] = [:]
        let interned = orders.interned
        for number in 0..<Int32(interned.count) {
            for side in 0..<2 {
                if let unit = report.side(order: number, side: side) {
                    found[UnitKey(order: interned.string(number), side: side == 0 ? "charge" : "refund")] = unit
                }
            }
        }
        let differing = Set(found.keys).union(expected.keys).filter { found[$0] != expected[$0] }
        #expect(differing.isEmpty, "\(differing.count) units differ, e.g. \(differing.first.map { "\($0): \(String(describing: found[$0])) vs \(String(describing: expected[$0]))" } ?? "")")
        #expect(expected.values.contains { $0.refundType == "Partial" } && expected.count > 600)
    }

    @Test func aDefectiveRowIsThrownAfterTheRowsBeforeIt() throws {
        let rows = Self.rows(orders: 3_000)
        let broken = rows.count - 40
        let path = try Self.zip(rows, broken: broken)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(rows[broken - 2].contains(",4.99,"), "the broken line is a charge")
        var seen = 0
        let error = #expect(throws: StoreReportError.self) {
            try EarningsRunThread.read(path: path, file: "runs.zip", batchSize: 64) { seen += $0.rows }
        }
        let plain = #expect(throws: StoreReportError.self) { try GoogleEarningsStream.read(path: path, file: "runs.zip") { _ in } }
        #expect(error?.line == broken && error == plain, "\(String(describing: error))")
        #expect(seen == broken - 2, "every row before the defective one, none after")
    }
}
