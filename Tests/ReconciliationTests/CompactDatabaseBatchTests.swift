@testable import Reconciliation
import Testing

/// The database side of a file read places its rows a batch at a time (their orders numbered under one taking of
/// the shared lock): whatever the batch size, every unit equals the one folded from its rows in key order — units
/// of several rows (a second row in the same batch, in a later batch, or after an escaped row), escaped rows, keys
/// that do not end with their order, alpha-3 countries, and rows outside the periods, which are left out.
@Suite struct CompactDatabaseBatchTests {
    static let period = ReconciliationPeriod(.google, "2026-10")!
    static let periods = [period.previous!, period, period.next!]

    /// COPY text rows: key, order, amount, currency, country, product, is_test, epoch seconds.
    static func rows() -> [String] {
        var rows: [String] = []
        for index in 0..<40 {
            let order = "GPA.\(1_000 + index)"
            let at = period.start + Int64(index) * 3_600
            rows.append("GOOGLE:tok\(index):\(order)\t\(order)\t4990000\tEUR\tDE\tpremium_monthly\tf\t\(at)")
            if index % 5 == 0 {
                // A refund of the charge.
                rows.append("GOOGLE:ref\(index):\(order)\t\(order)\t-4990000\tEUR\tDE\tpremium_monthly\tf\t\(at + 60)")
            }
            if index % 7 == 0 {
                // A second charge of the same order, its key sorting before the first's.
                rows.append("GOOGLE:a\(index):\(order)\t\(order)\t4990000\tEUR\tDEU\tpremium_monthly\tt\t\(at + 30)")
            }
        }
        // The neighbours, an escaped key, a key without its order, a row outside every period.
        rows.append("GOOGLE:prev:GPA.1003\tGPA.1003\t990000\tUSD\tUS\tpro_yearly\tf\t\(period.start - 100)")
        rows.append("GOOGLE:next:GPA.1004\tGPA.1004\t990000\tUSD\tUS\tpro_yearly\tf\t\(period.end + 100)")
        rows.append("GOOGLE:back\\\\slash:GPA.1014\tGPA.1014\t4990000\tEUR\tDE\tpremium_monthly\tf\t\(period.start + 5)")
        rows.append("legacy-key-17\tGPA.1017\t4990000\tEUR\tDE\tpremium_monthly\tf\t\(period.start + 7)")
        rows.append("GOOGLE:far:GPA.9999\tGPA.9999\t4990000\tEUR\tDE\tpremium_monthly\tf\t\(period.end + 400 * 86_400)")
        // Rows of one order far apart: one early, one after many batches.
        rows.insert("GOOGLE:z-early:GPA.1021\tGPA.1021\t4990000\tEUR\tDE\tpremium_monthly\tf\t\(period.start + 9)", at: 1)
        return rows
    }

    /// The units folded from the rows in key order, by (order, period, side).
    static func expected() throws -> [String: UnitSide] {
        var byUnit: [String: [GoogleDatabaseRow]] = [:]
        for text in rows() {
            var bytes = Array(text.utf8)
            let row = try bytes.withUnsafeMutableBytes { try GoogleFileSource.row(from: UnsafeRawBufferPointer($0)) }
            guard let period = periods.firstIndex(where: { $0.contains(row.at) }) else { continue }
            byUnit["\(row.order) \(period) \(row.amount > 0 ? 0 : 1)", default: []].append(row)
        }
        return byUnit.mapValues { rows in
            var side = UnitSide()
            for row in rows.sorted(by: { $0.key < $1.key }) { GoogleSource.fold(row, into: &side) }
            return side
        }
    }

    @Test(arguments: [1, 3, 16, 2048]) func everyBatchSizeGivesTheUnitsOfTheRowsInKeyOrder(batch: Int) throws {
        let orders = SharedOrders()
        var database = CompactDatabase(periods: Self.periods, orders: orders, batch: batch)
        for text in Self.rows() {
            var bytes = Array(text.utf8)
            try bytes.withUnsafeMutableBytes { try database.add(copyRow: UnsafeRawBufferPointer($0)) }
        }
        database.finish()
        let expected = try Self.expected()
        var found = 0
        let interned = orders.interned
        for number in 0..<Int32(interned.count) {
            let order = interned.string(number)
            for period in 0..<Self.periods.count {
                for side in 0..<2 {
                    let unit = database.side(order: number, text: order, period: period, side: side)
                    #expect(unit == expected["\(order) \(period) \(side)"], "\(order) period \(period) side \(side)")
                    if unit != nil { found += 1 }
                }
            }
        }
        #expect(found == expected.count && found > 40)
        #expect(interned.find("GPA.9999") == nil, "a row outside the periods numbers no order")
    }
}
