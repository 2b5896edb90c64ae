import BillingCore
@testable import Reconciliation
import ReportImport
import StoreExports
import Testing

/// Each Google category from hand-built units of one period and its neighbours (edges at 1000 and 2000 s), and the
/// units an order's earnings rows fold into (rebill sets, refund types).
@Suite struct GoogleCategorizerTests {
    let categorizer = GoogleCategorizer(windowSeconds: 100)

    /// A unit whose texts are numbered in `texts`.
    static func unit(_ gross: Int64, count: Int32 = 1, currency: String = "USD", at: Int64 = 1_500, test: Bool = false,
                     keys: [String] = [], in texts: inout UnitTexts) -> CompactUnit {
        var unit = CompactUnit()
        unit.gross = gross
        unit.count = count
        unit.currency = texts.currencies.intern(currency)
        unit.at = at
        unit.isTest = test
        for key in keys {
            var key = key
            let number = key.withUTF8 { texts.keys.append(UnsafeRawBufferPointer($0)) }
            if unit.firstKey < 0 { unit.firstKey = number }
        }
        return unit
    }

    func category(report: CompactUnit?, database: CompactUnit?, texts: UnitTexts, side: Int = 0,
                  neighbours: [GoogleCategorizer.Neighbour: CompactUnit] = [:]) -> ReconciliationCategory {
        categorizer.categorize(order: "GPA.1", side: side, report: report, database: database, reportTexts: texts,
                               databaseTexts: texts, start: 1_000, end: 2_000) { neighbours[$0] }.0
    }

    @Test func eachCategory() {
        var texts = UnitTexts()
        func side(_ gross: Int64, count: Int32 = 1, currency: String = "USD", test: Bool = false) -> CompactUnit {
            Self.unit(gross, count: count, currency: currency, test: test, in: &texts)
        }
        let units = (plain: side(9_990_000), more: side(10_090_000), euro: side(9_990_000, currency: "EUR"),
                     twice: side(19_980_000, count: 2), refund: side(-9_990_000), test: side(9_990_000, test: true))
        #expect(category(report: units.plain, database: units.plain, texts: texts) == .matched)
        #expect(category(report: units.more, database: units.plain, texts: texts) == .amountMismatch)
        #expect(category(report: units.euro, database: units.plain, texts: texts) == .currencyMismatch)
        #expect(category(report: units.twice, database: units.plain, texts: texts) == .duplicate)
        #expect(category(report: units.plain, database: nil, texts: texts) == .missingInDatabase)
        #expect(category(report: units.refund, database: nil, texts: texts, side: 1) == .refundNotReflected)
        #expect(category(report: nil, database: units.plain, texts: texts) == .missingInStoreReport)
        #expect(category(report: nil, database: units.test, texts: texts) == .testPurchaseExcluded)
    }

    @Test func timingOnlyWithinTheWindowOfTheSharedEdge() {
        var texts = UnitTexts()
        func side(_ at: Int64) -> CompactUnit { Self.unit(9_990_000, at: at, in: &texts) }
        let (at990, at1050, at1500, at1990, at2030, at2500) = (side(990), side(1_050), side(1_500), side(1_990), side(2_030), side(2_500))
        // In the database 50 s after the start; the report books it in the previous month.
        #expect(category(report: nil, database: at1050, texts: texts, neighbours: [.previousReport: at990]) == .timing)
        // 500 s after the start: outside the window, so it is missing from this month's report.
        #expect(category(report: nil, database: at1500, texts: texts, neighbours: [.previousReport: at990]) == .missingInStoreReport)
        #expect(category(report: at1990, database: nil, texts: texts, neighbours: [.nextDatabase: at2030]) == .timing)
        #expect(category(report: at1990, database: nil, texts: texts, neighbours: [.nextDatabase: at2500]) == .missingInDatabase)
    }

    @Test func aRefundOfAnotherAmountWithoutARefundTypeIsAnAmountMismatch() {
        var texts = UnitTexts()
        let (four, whole) = (Self.unit(-4_000_000, in: &texts), Self.unit(-9_990_000, in: &texts))
        #expect(category(report: four, database: whole, texts: texts, side: 1) == .amountMismatch)
        #expect(category(report: four, database: four, texts: texts, side: 1) == .matched)
    }

    /// One earnings row of the test order: its Transaction Type and Refund Type as the file spells them, its amount.
    struct Row {
        var type: String
        var refundType: String
        var amount: Int64
    }

    static let order = "GPA.3302-2312-6140-38722..2"

    /// The rows of one order shaped like a real Google earnings file: order ID, DKK amount and the `Charge` row's
    /// empty Refund Type from a real row published in a public project (`GPA.3302-2312-6140-38722..2,"Nov 1, 2019",
    /// 3:29:44 AM PDT,,Charge,,…,DKK,22.96,…`); two `Tax` rows (a withholding split) and the rebill set — the rows
    /// reversed as `… refund` rows with an EMPTY Refund Type, then `Charge rebill` / `Google fee rebill` /
    /// `Tax rebill` — as real files show them. A genuine refund carries Refund Type `Full` or `Partial`.
    func orderRows(_ suffix: String, _ direction: Int64, refundType: String = "") -> [Row] {
        [Row(type: "Charge" + suffix, refundType: refundType, amount: direction * 22_960_000),
         Row(type: "Google fee" + suffix, refundType: refundType, amount: direction * -3_440_000),
         Row(type: "Tax" + suffix, refundType: refundType, amount: direction * -2_300_000),
         Row(type: "Tax" + suffix, refundType: refundType, amount: direction * -2_290_000)]
    }

    /// The report side of the test order's units, as reconcile holds it (`GoogleOrderUnits`' report units of one
    /// period).
    struct Report {
        var texts: UnitTexts
        var units: [Int: CompactUnit]

        /// The unit of the test order (number 0) on `side`.
        func unit(order: Int32, side: Int) -> CompactUnit? { order == 0 ? units[side] : nil }
    }

    /// The report side of `rows` (the test order's), as reconcile reads it: folded into facts as import-exports folds
    /// an earnings file's rows (`GoogleEarningsFacts`), each fact absorbed into its unit in file order
    /// (`GoogleOrderUnits.addFact`).
    func report(_ rows: [Row]) throws -> Report {
        var facts = GoogleEarningsFacts()
        let period = try #require(ReconciliationPeriod(.google, "2026-10"))
        var order = GoogleOrderUnits(periods: [period, period, period])
        func absorb(_ fact: GoogleEarningsFact) {
            fact.order.withUnsafeBytes { id in
                if !order.holds(id) { order.start(id) }
                fact.currency.withUnsafeBytes { currency in
                    fact.country.withUnsafeBytes { country in
                        fact.product.withUnsafeBytes { product in
                            let refundType = Array((fact.refundType?.rawValue ?? "").utf8)
                            refundType.withUnsafeBytes { refund in
                                order.addFact(period: 1, side: Int(fact.side), gross: fact.gross, fee: fact.fee, tax: fact.tax,
                                              charges: fact.charges, currency: currency, country: country, product: product,
                                              refundType: fact.refundType == nil ? nil : refund, at: fact.at)
                            }
                        }
                    }
                }
            }
        }
        let texts0 = (Array(Self.order.utf8), Array("member.android.cableshop".utf8), Array("DK".utf8), Array("DKK".utf8))
        for row in rows {
            let type = try #require(GoogleTransactionType(raw: row.type), "\(row.type)")
            texts0.0.withUnsafeBytes { order in
                texts0.1.withUnsafeBytes { product in
                    texts0.2.withUnsafeBytes { country in
                        texts0.3.withUnsafeBytes { currency in
                            facts.add(GoogleEarningsFields(
                                line: 0, orderID: order, transactionType: type, refundType: GoogleRefundType(rawValue: row.refundType),
                                productID: product, buyerCountry: country, buyerCurrency: currency, amountBuyerMicros: row.amount,
                                transactionEpochSeconds: 1_500), absorb)
                        }
                    }
                }
            }
        }
        facts.finish(absorb)
        var units: [Int: CompactUnit] = [:]
        for side in 0..<2 { units[side] = order.report(period: 1, side: side) }
        return Report(texts: order.reportTexts, units: units)
    }

    /// The database side of the test order: its charge and refund units, texts in `texts`.
    struct Database {
        var texts = UnitTexts()
        var units: [Int: CompactUnit] = [:]
    }

    /// The items of the test order from its report side and `database`.
    func items(_ report: Report, database: Database) -> [ReconciliationItem] {
        (0..<2).compactMap { side in
            let reportUnit = report.unit(order: 0, side: side), databaseUnit = database.units[side]
            guard reportUnit != nil || databaseUnit != nil else { return nil }
            let (category, detail) = categorizer.categorize(order: Self.order, side: side, report: reportUnit, database: databaseUnit,
                                                            reportTexts: report.texts, databaseTexts: database.texts,
                                                            start: 1_000, end: 2_000) { _ in nil }
            return GoogleCategorizer.item(order: Self.order, side: side, report: reportUnit, database: databaseUnit,
                                          reportTexts: report.texts, databaseTexts: database.texts, category: category, detail: detail)
        }
    }

    /// The database holding the order's charge of 22.96 DKK (and its refund of `refund`, keyed, when given).
    func database(refund: Int64? = nil) -> Database {
        var database = Database()
        database.units[0] = Self.unit(22_960_000, currency: "DKK", in: &database.texts)
        if let refund {
            database.units[1] = Self.unit(refund, currency: "DKK", keys: ["GOOGLE:token:\(Self.order):REFUNDED"], in: &database.texts)
        }
        return database
    }

    /// Google's earnings say `Partial`; the database, which learns refunds from voided purchases (no amount), holds the
    /// whole charge refunded: the refund is not reflected, and the detail names the Refund Type (as for a full refund
    /// the database lacks).
    @Test func aPartialRefundIsARefundNotReflectedNamingItsRefundType() throws {
        let half = orderRows(" refund", -1, refundType: "Partial").map { row -> Row in
            var row = row
            row.amount /= 2
            return row
        }
        let units = try report(orderRows("", 1) + half)
        let refund = try #require(units.unit(order: 0, side: 1))
        #expect(units.texts.refundType(refund) == "Partial" && refund.gross == -11_480_000 && refund.count == 1)
        #expect(units.unit(order: 0, side: 0).map { units.texts.refundType($0) } == "")
        let found = items(units, database: database(refund: -22_960_000))
        #expect(found.map(\.category) == [.matched, .refundNotReflected])
        // The stored key's purchase token is masked; the order stays whole.
        #expect(found.last?.detail == "Refund Type Partial GOOGLE:…:\(Self.order):REFUNDED")
        #expect(found.last?.reportGross == -11_480_000 && found.last?.databaseGross == -22_960_000)
        let totals = ReconciliationTotals(found).currencies["DKK"]
        #expect(totals?.variance == 11_480_000 && totals?.byCategory[.refundNotReflected] == 11_480_000)
        #expect(totals?.explained == totals?.variance)

        // Without the database's refund the detail still names the report's Refund Type, `Full` or `Partial`.
        #expect(items(units, database: database()).last?.detail == "Refund Type Partial")
        let full = try report(orderRows("", 1) + orderRows(" refund", -1, refundType: "Full"))
        #expect(items(full, database: database()).last?.detail == "Refund Type Full")
        // A Partial refund of the very amount the database holds is matched.
        #expect(items(units, database: database(refund: -11_480_000)).map(\.category) == [.matched, .matched])
    }

    @Test func aRebillSetNetsToTheOneChargeWhileARepeatedChargeIsADuplicate() throws {
        let rebilled = orderRows("", 1) + orderRows(" refund", -1) + orderRows(" rebill", 1)
        let units = try report(rebilled)
        #expect(units.unit(order: 0, side: 1) == nil)
        let charge = try #require(units.unit(order: 0, side: 0))
        #expect(charge.count == 1)
        #expect(charge.gross == 22_960_000)
        #expect(charge.fee == -3_440_000)
        #expect(charge.tax == -4_590_000)
        let matched = items(units, database: database())
        #expect(matched.map(\.category) == [.matched])
        let totals = ReconciliationTotals(matched).currencies["DKK"]
        #expect(totals?.variance == 0)
        #expect(totals?.explained == 0)

        // The store writing the order twice (with its rebill set each time) is still a duplicate charge.
        let duplicated = items(try report(rebilled + rebilled), database: database())
        #expect(duplicated.map(\.category) == [.duplicate])
        let duplicateTotals = ReconciliationTotals(duplicated).currencies["DKK"]
        #expect(duplicateTotals?.variance == 22_960_000)
        #expect(duplicateTotals?.byCategory[.duplicate] == 22_960_000)
        #expect(duplicateTotals?.explained == duplicateTotals?.variance)
        #expect(items(try report(orderRows("", 1) + orderRows("", 1)), database: database()).map(\.category) == [.duplicate])

        // A `Charge refund` with Refund Type `Full` is a refund of the order, not a reversal.
        let refunded = try report(orderRows("", 1) + orderRows(" refund", -1, refundType: "Full"))
        #expect(refunded.unit(order: 0, side: 0)?.count == 1)
        #expect(refunded.unit(order: 0, side: 1)?.count == 1)
        #expect(refunded.unit(order: 0, side: 1)?.gross == -22_960_000)
        #expect(items(refunded, database: database()).map(\.category) == [.matched, .refundNotReflected])

        // A reversal and rebill alone in a month (the charge booked in another) nets to nothing to explain.
        let alone = try report(orderRows(" refund", -1) + orderRows(" rebill", 1))
        #expect(alone.unit(order: 0, side: 0)?.count == 0)
        let aloneItems = items(alone, database: Database())
        #expect(aloneItems.map(\.category) == [.matched])
        #expect(ReconciliationTotals(aloneItems).currencies["DKK"]?.variance ?? 0 == 0)
    }
}
