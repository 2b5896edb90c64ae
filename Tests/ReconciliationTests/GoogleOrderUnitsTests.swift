import Foundation
@testable import Postgres
@testable import Reconciliation
import Testing

/// An order's database rows, arriving as the sorted stream sends them (by order ID, then transaction key), fold into
/// the units the comparison reads: per period and side, every unit equals the one folded from its rows in key order
/// — units of several rows, keys holding a tab, a backslash or a line break (binary COPY sends them as they are), keys
/// that do not end with their order, alpha-3 countries — and rows outside the periods are left out.
@Suite struct GoogleOrderUnitsTests {
    /// One billing_transaction row as the stream sends it.
    struct Row {
        var key: String
        var order: String
        var amount: Int64
        var currency: String
        var country: String
        var product: String
        var isTest: Bool
        /// `effective_at`, UTC epoch seconds.
        var at: Int64
    }

    static let period = ReconciliationPeriod(.google, "2026-10")!
    static let periods = [period.previous!, period, period.next!]

    static func row(_ key: String, _ order: String, _ amount: Int64, _ currency: String, _ country: String, _ product: String,
                    test: Bool = false, at: Int64) -> Row {
        Row(key: key, order: order, amount: amount, currency: currency, country: country, product: product,
                          isTest: test, at: at)
    }

    /// The rows: key, order, amount, currency, country, product, is_test, epoch seconds.
    static func rows() -> [Row] {
        var rows: [Row] = []
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

    /// A unit as text: amounts, count, texts, instant, test flag and keys.
    static func describe(_ unit: CompactUnit, _ texts: UnitTexts) -> String {
        "\(unit.gross) \(unit.fee) \(unit.tax) \(unit.count) \(texts.currencies.string(unit.currency)) "
            + "\(texts.products.string(unit.product)) \(texts.countries.string(unit.country)) \(unit.at) \(unit.isTest) "
            + texts.keys(of: unit).joined(separator: "|")
    }

    /// The units folded from the rows in key order, by (order, period, side), as text: amounts and counts added up,
    /// the first row's currency, the first non-empty product and (alpha-2) country, the earliest instant, a test purchase when every row
    /// is one, every key.
    static func expected() -> [String: String] {
        var byUnit: [String: [Row]] = [:]
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

    @Test func everyUnitIsItsRowsFoldedInKeyOrder() throws {
        let expected = Self.expected()
        let sorted = Self.rows().sorted { a, b in
            a.order.utf8.elementsEqual(b.order.utf8) ? a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
                : a.order.utf8.lexicographicallyPrecedes(b.order.utf8)
        }
        var order = GoogleOrderUnits(periods: Self.periods)
        var found: [String: String] = [:]
        func collect() {
            order.fold()
            for period in 0..<Self.periods.count {
                for side in 0..<2 {
                    if let unit = order.database(period: period, side: side) {
                        found["\(order.order) \(period) \(side)"] = Self.describe(unit, order.databaseTexts)
                    }
                }
            }
        }
        for row in sorted {
            let id = Array(row.order.utf8)
            id.withUnsafeBytes { id in
                if !order.holds(id) {
                    if order.hasRows { collect() }
                    order.start(id)
                }
            }
            // The row as a batch of the database stream holds it: its texts end to end.
            var batch: [UInt8] = []
            func text(_ value: String) -> Range<Int> {
                let start = batch.count
                batch.append(contentsOf: value.utf8)
                return start..<batch.count
            }
            let streamed = GoogleDatabaseStream.Row(order: text(row.order), key: text(row.key), currency: text(row.currency),
                                                    country: text(row.country), product: text(row.product), amount: row.amount,
                                                    isTest: row.isTest, at: row.at)
            batch.withUnsafeBytes { order.addDatabaseRow(streamed, bytes: $0) }
        }
        collect()
        #expect(found == expected)
        #expect(found.count > 40)
        #expect(!found.keys.contains { $0.hasPrefix("GPA.9999") }, "a row outside the periods makes no unit")
        #expect(expected.values.contains { $0.contains("GOOGLE:tab\there\nline:GPA.1015") })
    }

    /// The rows as the server sends them in binary COPY: the file header with the first tuple, one tuple per
    /// message, the trailer alone; `effective_at` in microseconds since 2000 (with a fraction that rounds away).
    static func messages(_ rows: [Row]) -> [[UInt8]] {
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

    /// The database stream's batches hold each tuple's fields as sent (a key with a tab and a line break, a negative
    /// amount, the instant rounded to whole seconds); a NULL where the statement never sends one is refused naming it.
    @Test func theDatabaseStreamKeepsEachTupleAndRefusesAnotherShape() throws {
        let rows = [Self.row("GOOGLE:tab\there\nline:GPA.1015", "GPA.1015", -4_990_000, "EUR", "DEU", "premium_monthly",
                             test: true, at: Self.period.start + 6)]
        var reader = BinaryCopyReader()
        var batch = GoogleDatabaseStream.Batch()
        for message in Self.messages(rows) {
            try message.withUnsafeBytes { bytes in
                guard try reader.read(bytes) else { return }
                try batch.add(bytes, fields: reader.fields, number: 1)
            }
        }
        let row = try #require(batch.rows.first)
        func text(_ range: Range<Int>) -> String { String(decoding: batch.bytes[range], as: UTF8.self) }
        #expect(batch.rows.count == 1)
        #expect(text(row.key) == rows[0].key && text(row.order) == "GPA.1015" && text(row.country) == "DEU")
        #expect(row.amount == -4_990_000 && row.isTest && row.at == Self.period.start + 6)

        // The amount (third field) as NULL: its length -1 and no bytes.
        var tuple = Self.messages([Self.row("k", "GPA.1", 1, "EUR", "DE", "p", at: Self.period.start)])[0]
        let amountAt = BinaryCopyReader.signature.count + 8 + 2 + 4 + 1 + 4 + 5
        tuple.replaceSubrange(amountAt..<(amountAt + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
        var fresh = BinaryCopyReader()
        let error = #expect(throws: PostgresError.self) {
            try tuple.withUnsafeBytes { bytes in
                _ = try fresh.read(bytes)
                try batch.add(bytes, fields: fresh.fields, number: 1)
            }
        }
        #expect(error?.message.contains("NULL in field 3") == true)
    }
}
