import CompactMemory
import Foundation
@testable import Postgres
@testable import Reconciliation
import Testing

/// The database side of a file read places its rows a batch at a time (their orders numbered under one taking of
/// the shared lock): whatever the batch size, every unit equals the one folded from its rows in key order — units
/// of several rows (a second row in the same batch or in a later batch), keys holding a tab, a backslash or a line
/// break (binary COPY sends them as they are), keys that do not end with their order, alpha-3 countries, and rows
/// outside the periods, which are left out. The rows arrive as binary COPY messages, header and trailer included.
@Suite struct CompactDatabaseBatchTests {
    static let period = ReconciliationPeriod(.google, "2026-10")!
    static let periods = [period.previous!, period, period.next!]

    static func row(_ key: String, _ order: String, _ amount: Int64, _ currency: String, _ country: String, _ product: String,
                    test: Bool = false, at: Int64) -> GoogleDatabaseRow {
        GoogleDatabaseRow(key: key, order: order, amount: amount, currency: currency, country: country, product: product,
                          isTest: test, at: at)
    }

    /// The rows: key, order, amount, currency, country, product, is_test, epoch seconds.
    static func rows() -> [GoogleDatabaseRow] {
        var rows: [GoogleDatabaseRow] = []
        for index in 0..<40 {
            let order = "GPA.\(1_000 + index)"
            let at = period.start + Int64(index) * 3_600
            rows.append(row("GOOGLE:tok\(index):\(order)", order, 4_990_000, "EUR", "DE", "premium_monthly", at: at))
            if index % 5 == 0 {
                // A refund of the charge.
                rows.append(row("GOOGLE:ref\(index):\(order)", order, -4_990_000, "EUR", "DE", "premium_monthly", at: at + 60))
            }
            if index % 7 == 0 {
                // A second charge of the same order, its key sorting before the first's.
                rows.append(row("GOOGLE:a\(index):\(order)", order, 4_990_000, "EUR", "DEU", "premium_monthly", test: true, at: at + 30))
            }
        }
        // The neighbours, keys with a backslash, a tab and a line break, a key without its order, a row outside every period.
        rows.append(row("GOOGLE:prev:GPA.1003", "GPA.1003", 990_000, "USD", "US", "pro_yearly", at: period.start - 100))
        rows.append(row("GOOGLE:next:GPA.1004", "GPA.1004", 990_000, "USD", "US", "pro_yearly", at: period.end + 100))
        rows.append(row("GOOGLE:back\\slash:GPA.1014", "GPA.1014", 4_990_000, "EUR", "DE", "premium_monthly", at: period.start + 5))
        rows.append(row("GOOGLE:tab\there\nline:GPA.1015", "GPA.1015", 4_990_000, "EUR", "DE", "premium_monthly", at: period.start + 6))
        rows.append(row("legacy-key-17", "GPA.1017", 4_990_000, "EUR", "DE", "premium_monthly", at: period.start + 7))
        rows.append(row("GOOGLE:far:GPA.9999", "GPA.9999", 4_990_000, "EUR", "DE", "premium_monthly", at: period.end + 400 * 86_400))
        // Rows of one order far apart: one early, one after many batches.
        rows.insert(row("GOOGLE:z-early:GPA.1021", "GPA.1021", 4_990_000, "EUR", "DE", "premium_monthly", at: period.start + 9), at: 1)
        return rows
    }

    /// The rows as the server sends them in binary COPY: the file header with the first tuple, one tuple per
    /// message, the trailer alone; `effective_at` in microseconds since 2000 (with a fraction that rounds away).
    static func messages(_ rows: [GoogleDatabaseRow]) -> [[UInt8]] {
        func int16(_ value: Int16) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        func int64(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        func field(_ bytes: [UInt8]) -> [UInt8] { int32(Int32(bytes.count)) + bytes }
        var messages = rows.map { row -> [UInt8] in
            let micros = (row.at - 946_684_800) * 1_000_000 + 400_000
            return int16(8) + field(Array(row.key.utf8)) + field(Array(row.order.utf8)) + field(int64(row.amount))
                + field(Array(row.currency.utf8)) + field(Array(row.country.utf8)) + field(Array(row.product.utf8))
                + field([row.isTest ? 1 : 0]) + field(int64(micros))
        }
        messages[0] = BinaryCopyReader.signature + int32(0) + int32(0) + messages[0]
        messages.append(int16(-1))
        return messages
    }

    /// A unit as text: amounts, count, texts, instant, test flag and keys (`order` for a key stored without it).
    static func describe(_ unit: CompactUnit, _ texts: UnitTexts, order: String) -> String {
        "\(unit.gross) \(unit.fee) \(unit.tax) \(unit.count) \(texts.currencies.string(unit.currency)) "
            + "\(texts.products.string(unit.product)) \(texts.countries.string(unit.country)) \(unit.at) \(unit.isTest) "
            + texts.keys(of: unit, order: order).joined(separator: "|")
    }

    /// The units folded from the rows in key order, by (order, period, side), as text: amounts and counts added up,
    /// the first row's currency, the first non-empty product and (alpha-2) country, the earliest instant, a test purchase when every row
    /// is one, every key.
    static func expected() -> [String: String] {
        var byUnit: [String: [GoogleDatabaseRow]] = [:]
        for row in rows() {
            guard let period = periods.firstIndex(where: { $0.contains(row.at) }) else { continue }
            byUnit["\(row.order) \(period) \(row.amount > 0 ? 0 : 1)", default: []].append(row)
        }
        return byUnit.mapValues { unsorted in
            let rows = unsorted.sorted(by: { $0.key < $1.key })
            let product = rows.first { !$0.product.isEmpty }?.product ?? ""
            let country = rows.map { CountryCodes.alpha2($0.country) }.first { !$0.isEmpty } ?? ""
            return "\(rows.reduce(0) { $0 + $1.amount }) 0 0 \(rows.count) \(rows[0].currency) \(product) "
                + "\(country) \(rows.map(\.at).min() ?? 0) \(rows.allSatisfy(\.isTest)) "
                + rows.map(\.key).joined(separator: "|")
        }
    }

    @Test(arguments: [1, 3, 16, 2048]) func everyBatchSizeGivesTheUnitsOfTheRowsInKeyOrder(batch: Int) throws {
        let orders = SharedOrders()
        var database = CompactDatabase(periods: Self.periods, orders: orders, batch: batch)
        for message in Self.messages(Self.rows()) {
            try message.withUnsafeBytes { try database.add(copyMessage: $0) }
        }
        database.finish()
        let expected = Self.expected()
        var found = 0
        let interned = orders.interned
        for number in 0..<Int32(interned.count) {
            let order = interned.string(number)
            for period in 0..<Self.periods.count {
                for side in 0..<2 {
                    let unit = database.unit(order: number, period: period, side: side).map { Self.describe($0, database.texts, order: order) }
                    #expect(unit == expected["\(order) \(period) \(side)"], "\(order) period \(period) side \(side)")
                    if unit != nil { found += 1 }
                }
            }
        }
        #expect(found == expected.count && found > 40)
        #expect(interned.find("GPA.9999") == nil, "a row outside the periods numbers no order")
        #expect(expected.values.contains { $0.contains("GOOGLE:tab\there\nline:GPA.1015") })
    }

    /// A NULL where the statement never sends one, or a field of the wrong width, is refused naming it.
    @Test func aTupleOfAnotherShapeIsRefused() throws {
        var rows = Self.messages([Self.row("k", "GPA.1", 1, "EUR", "DE", "p", at: Self.period.start)])
        // The amount (third field) as NULL: its length -1 and no bytes.
        var tuple = rows[0]
        let amountAt = BinaryCopyReader.signature.count + 8 + 2 + 4 + 1 + 4 + 5
        tuple.replaceSubrange(amountAt..<(amountAt + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
        rows[0] = tuple
        var database = CompactDatabase(periods: Self.periods, orders: SharedOrders())
        let error = #expect(throws: PostgresError.self) { try rows[0].withUnsafeBytes { try database.add(copyMessage: $0) } }
        #expect(error?.message.contains("NULL in field 3") == true)
    }
}
