import BillingCore
import CompactMemory
@testable import Reconciliation
import Testing

/// A matched unit's CSV line written from the compact sides is the line of its item: quoting, keys stored with and
/// without their order, empty keys, negative amounts.
@Suite struct CompactMatchedLinesTests {
    func side(gross: Int64, count: Int64, product: String, keys: [String]) -> UnitSide {
        var side = UnitSide()
        side.gross = gross
        side.fee = -gross * 15 / 100
        side.tax = -1_000
        side.count = count
        side.currency = "EUR"
        side.productId = product
        side.country = "DE"
        side.at = 1_780_000_000
        side.isTest = keys.isEmpty
        side.keys = keys
        return side
    }

    @Test(arguments: [
        ("premium_monthly", [String](), 0),
        ("pro, \"yearly\"", ["GOOGLE:tok:GPA.1", "", "GOOGLE:t,2:GPA.1"], 0),
        ("premium_monthly", ["GOOGLE:tok:GPA.1"], 1),
    ] as [(String, [String], Int)])
    func lineEqualsTheItemsLine(product: String, keys: [String], side: Int) {
        let order = "GPA.1"
        var orders = ByteInterner()
        let number = orders.intern(order)
        var reportTexts = UnitTexts(), databaseTexts = UnitTexts()
        let report = reportTexts.unit(self.side(gross: side == 0 ? 4_990_000 : -4_990_000, count: 1, product: product, keys: []))
        var database = databaseTexts.unit(self.side(gross: side == 0 ? 4_990_000 : -4_990_000, count: Int64(max(1, keys.count)),
                                                    product: product, keys: keys))
        if keys == ["GOOGLE:tok:GPA.1"] {
            // As `CompactDatabase` stores a one-row unit: the key without its `:` + order.
            var bare = "GOOGLE:tok"
            database.firstKey = bare.withUTF8 { databaseTexts.keys.append(UnsafeRawBufferPointer($0)) }
            database.keyEndsWithOrder = true
        }
        let key = UnitKey(order: order, side: side == 0 ? "charge" : "refund")
        let item = GoogleCategorizer.item(key, report: reportTexts.side(report, order: order),
                                          database: databaseTexts.side(database, order: order), category: .matched, detail: "")
        var expected: [UInt8] = []
        ReconciliationCSV.append(item, line: 42, to: &expected)
        var line: [UInt8] = [], detail: [UInt8] = []
        ReconciliationCSV.appendMatched(CompactMatch(order: number, side: side, report: report, database: database), line: 42,
                                        orders: orders, report: reportTexts, database: databaseTexts, detail: &detail, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(item.detail == keys.filter { !$0.isEmpty }.map(Redaction.transactionKey).joined(separator: " "))
    }
}
