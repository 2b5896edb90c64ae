import BillingCore
@testable import Reconciliation
import Testing

/// A matched unit's CSV line written from the compact sides is the line of its item: quoting, empty keys, negative
/// amounts.
@Suite struct CompactMatchedLinesTests {
    /// A unit whose texts are numbered in `texts`, its keys stored whole, one after another.
    func unit(gross: Int64, count: Int32, product: String, keys: [String], in texts: inout UnitTexts) -> CompactUnit {
        var unit = CompactUnit()
        unit.gross = gross
        unit.fee = -gross * 15 / 100
        unit.tax = -1_000
        unit.count = count
        unit.currency = texts.currencies.intern("EUR")
        unit.product = texts.products.intern(product)
        unit.country = texts.countries.intern("DE")
        unit.at = 1_780_000_000
        unit.isTest = keys.isEmpty
        for key in keys {
            var key = key
            let number = key.withUTF8 { texts.keys.append(UnsafeRawBufferPointer($0)) }
            if unit.firstKey < 0 { unit.firstKey = number }
        }
        return unit
    }

    @Test(arguments: [
        ("premium_monthly", [String](), 0),
        ("pro, \"yearly\"", ["GOOGLE:tok:GPA.1", "", "GOOGLE:t,2:GPA.1"], 0),
        ("premium_monthly", ["GOOGLE:tok:GPA.1"], 1),
    ] as [(String, [String], Int)])
    func lineEqualsTheItemsLine(product: String, keys: [String], side: Int) {
        let order = "GPA.1"
        var reportTexts = UnitTexts(), databaseTexts = UnitTexts()
        let report = unit(gross: side == 0 ? 4_990_000 : -4_990_000, count: 1, product: product, keys: [], in: &reportTexts)
        let database = unit(gross: side == 0 ? 4_990_000 : -4_990_000, count: Int32(max(1, keys.count)), product: product,
                            keys: keys, in: &databaseTexts)
        let item = GoogleCategorizer.item(order: order, side: side, report: report, database: database, reportTexts: reportTexts,
                                          databaseTexts: databaseTexts, category: .matched, detail: "")
        var expected: [UInt8] = []
        ReconciliationCSV.append(item, line: 42, to: &expected)
        var line: [UInt8] = [], detail: [UInt8] = []
        Array(order.utf8).withUnsafeBytes { id in
            ReconciliationCSV.appendMatched(CompactMatch(side: side, report: report, database: database), line: 42,
                                            order: id, report: reportTexts, database: databaseTexts, detail: &detail, to: &line)
        }
        #expect(String(decoding: line, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(item.detail == keys.filter { !$0.isEmpty }.map(Redaction.transactionKey).joined(separator: " "))
    }
}
