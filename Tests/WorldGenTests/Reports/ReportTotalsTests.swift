import Foundation
import Postgres
import Testing
@testable import WorldGen

/// The files carry exactly the ledger with the manifest's discrepancies applied: nothing more, nothing less.
@Suite struct ReportTotalsTests {
    static let shares = ReportDiscrepancyShares(missingInDatabase: 0.03, missingInReport: 0.03, mismatchedCharge: 0.03, duplicate: 0.03,
                                                refundMissingInDatabase: 0.03, periodBoundary: 0.5, currencyMismatch: 0.03)
    static let fixture: Result<(GeneratedWorld, StoreReportSet), Error> = Result {
        let world = try World.generate(WorldOptions(seed: 23, subscriptions: 600, months: 3, testShare: 0.04,
                                                    faultShares: [.refundNotReflected: 0.5, .voidedPurchaseNotApplied: 0.5]))
        return (world, try StoreReports.render(world, shares: shares))
    }

    @Test func reportLedgerCoversTheWorldLedger() throws {
        let (world, _) = try Self.fixture.get()
        let entries = ReportLedger.entries(world)
        let byKey = Dictionary(entries.map { ($0.transactionKey, $0) }, uniquingKeysWith: { first, _ in first })
        for charge in world.ledger {
            let entry = try #require(byKey[charge.transactionKey], "\(charge.transactionKey)")
            #expect(entry.amountMicros == charge.amountMicros && entry.currency == charge.currency && entry.isTest == charge.isTest)
        }
        #expect(entries.filter { $0.kind == .refund && !$0.isApple }.allSatisfy { $0.orderId != nil })
    }

    @Test func everyKindIsInjectedAndEachListedOnce() throws {
        let (world, reports) = try Self.fixture.get()
        #expect(Set(reports.discrepancies.map(\.kind)) == Set(ReportDiscrepancyKind.allCases))
        #expect(Set(reports.discrepancies.map(\.transactionKey)).count == reports.discrepancies.count)
        let storeOnly = ReportLedger.entries(world).filter { $0.storeOnly && !$0.isTest }.map(\.transactionKey)
        #expect(!storeOnly.isEmpty)
        #expect(Set(storeOnly).isSubset(of: Set(reports.discrepancies.map(\.transactionKey))))
        #expect(reports.keysMissingFromDatabase.count == reports.discrepancies.filter { $0.kind == .missingInDatabase }.count)
    }

    @Test(arguments: [false, true])
    func filesEqualLedgerWithDiscrepanciesApplied(clean: Bool) throws {
        let (world, injected) = try Self.fixture.get()
        let reports = clean ? try StoreReports.render(world, shares: .none) : injected
        if clean { #expect(reports.discrepancies.allSatisfy { [.testPurchaseExcluded, .refundMissingInDatabase, .partialRefund].contains($0.kind) }) }
        let expected = try Self.expectedEntries(ReportLedger.entries(world), reports.discrepancies)
        let products = ReportProducts(catalogue: world.catalogue)
        #expect(Self.appleFinancialRows(expected, products).count > 50 && Self.earningsRows(expected).count > 300)
        #expect(try Self.appleFinancialRows(reports, consolidated: false) == Self.appleFinancialRows(expected, products))
        #expect(try Self.appleFinancialRows(reports, consolidated: true) == Self.appleFinancialRows(expected, products))
        #expect(try Self.subscriberRows(reports) == Self.subscriberRows(expected, products))
        let (charges, fees) = try Self.earningsRows(reports)
        #expect(charges == Self.earningsRows(expected))
        #expect(fees == charges.values.reduce(0, +))
        #expect(try Self.salesRows(reports) == Self.salesRows(expected))
    }

    /// The test's own application of the manifest to the ledger; every discrepancy must be consumed.
    static func expectedEntries(_ ledger: [ReportEntry], _ discrepancies: [ReportDiscrepancy]) throws -> [ReportEntry] {
        let byKey = Dictionary(uniqueKeysWithValues: discrepancies.map { ($0.transactionKey, $0) })
        var used: Set<String> = []
        var result: [ReportEntry] = []
        for entry in ledger where !entry.storeOnly {
            // (A Google partial refund is keyed by the database's refund row, which has the same key: it is applied below.)
            if entry.kind == .charge, !entry.isTest, let refund = byKey[entry.transactionKey + ":REFUNDED"], refund.kind != .partialRefund {
                #expect(refund.kind == .refundMissingInDatabase && refund.databaseMicros == nil)
                var changed = entry
                changed.kind = .refund
                changed.transactionKey = refund.transactionKey
                changed.amountMicros = -(try #require(refund.reportMicros))
                changed.atMs = try ms(try #require(refund.reportAt))
                result.append(changed)
                used.insert(refund.transactionKey)
            }
            let found = byKey[entry.transactionKey]
            if let found { used.insert(found.transactionKey) }
            if entry.isTest {
                #expect(entry.isFree || found?.kind == .testPurchaseExcluded, "\(entry.transactionKey)")
                continue
            }
            guard let discrepancy = found else { result.append(entry); continue }
            #expect(discrepancy.subscriptionId == entry.subscriptionId && discrepancy.orderId == entry.orderId)
            var changed = entry
            switch discrepancy.kind {
            case .missingInReport, .testPurchaseExcluded: continue
            case .missingInDatabase: result.append(entry)
            case .duplicate: result += [entry, entry]
            case .currencyMismatch:
                changed.currency = try #require(discrepancy.reportCurrency)
                #expect(changed.currency != entry.currency)
                result.append(changed)
            case .amountMismatch:
                changed.amountMicros = try #require(discrepancy.reportMicros)
                #expect(changed.amountMicros != entry.amountMicros)
                result.append(changed)
            case .periodBoundary:
                changed.atMs = try ms(try #require(discrepancy.reportAt))
                changed.purchaseAtMs = changed.atMs
                #expect(discrepancy.reportPeriod != discrepancy.databasePeriod)
                #expect(discrepancy.reportPeriod == ReportInjector.periodKey(changed))
                result.append(changed)
            case .partialRefund:
                #expect(entry.kind == .refund && !entry.isApple && discrepancy.databaseMicros == -entry.amountMicros)
                changed.amountMicros = -(try #require(discrepancy.reportMicros))
                changed.isPartialRefund = true
                #expect(changed.amountMicros < entry.amountMicros)
                result.append(changed)
            case .refundMissingInDatabase: Issue.record("a refund the database lacks is keyed by the refund: \(discrepancy)")
            }
        }
        #expect(used == Set(byKey.keys), "listed but not in the ledger: \(Set(byKey.keys).subtracting(used))")
        return result
    }

    /// Apple financial rows `period|product|country|currency|S/R|price` → quantity, from the files.
    static func appleFinancialRows(_ reports: StoreReportSet, consolidated: Bool) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for (path, bytes) in reports.files where path.hasPrefix("apple/finance/") && path.hasSuffix("_ZZ.txt") == consolidated {
            let period = String(path.split(separator: "_")[1])
            let table = try ReportFileReader.appleFinancial(bytes).table
            for index in table.rows.indices {
                let row = table.row(index)
                let key = [period, row["Vendor Identifier"], row["Country Of Sale"], row["Customer Currency"], row["Sales or Return"],
                           row["Customer Price"]].map { $0 ?? "" }.joined(separator: "|")
                result[key, default: 0] += Int64(row["Quantity"] ?? "") ?? 0
            }
        }
        return result
    }

    static func appleFinancialRows(_ entries: [ReportEntry], _ products: ReportProducts) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for entry in entries where entry.isInFinancialReport {
            let refund = entry.kind == .refund
            let key = [AppleFiscalPeriod.containing(ms: entry.atMs).fileMMYY, products.catalogue.plans[entry.plan].appleProductId,
                       entry.country, entry.currency, refund ? "R" : "S",
                       ReportDecimal.format(refund ? -entry.amountMicros : entry.amountMicros)].joined(separator: "|")
            result[key, default: 0] += refund ? -1 : 1
        }
        return result
    }

    static func subscriberRows(_ reports: StoreReportSet) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for (path, bytes) in reports.files where path.hasPrefix("apple/sales/") {
            let table = try ReportFileReader.tabSeparated(bytes)
            for index in table.rows.indices {
                let row = table.row(index)
                let key = ["Event Date", "Subscription Apple ID", "Country", "Customer Currency", "Customer Price", "Refund", "Purchase Date"]
                    .map { row[$0] ?? "" }.joined(separator: "|")
                result[key, default: 0] += 1
            }
        }
        return result
    }

    static func subscriberRows(_ entries: [ReportEntry], _ products: ReportProducts) -> [String: Int] {
        var result: [String: Int] = [:]
        for entry in entries where entry.isApple {
            let refund = entry.kind == .refund
            let key = [ReportCalendar.isoDate(ReportCalendar.pacificDay(entry.atMs)), String(products.appleIdentifier(entry.plan)),
                       entry.country, entry.currency, ReportDecimal.format(refund ? -entry.amountMicros : entry.amountMicros),
                       refund ? "Yes" : "", refund ? ReportCalendar.isoDate(ReportCalendar.pacificDay(entry.purchaseAtMs)) : ""]
                .joined(separator: "|")
            result[key, default: 0] += 1
        }
        return result
    }

    /// Earnings `month|order|type|refund type|amount` → count for Charge / Charge refund rows, and the number of fee rows; a rebill
    /// set (the order's rows reversed with an empty Refund Type, then `… rebill` rows) must net to zero and is left out.
    static func earningsRows(_ reports: StoreReportSet) throws -> ([String: Int], Int) {
        var result: [String: Int] = [:]
        var fees = 0
        var rebillNet: [String: Int64] = [:]
        for (path, bytes) in reports.files where path.hasPrefix("google/earnings/") {
            let month = String(path.dropFirst("google/earnings/earnings_".count).prefix(6))
            let table = try ReportFileReader.zippedCSV(bytes).1
            for index in table.rows.indices {
                let row = table.row(index)
                let type = row["Transaction Type"] ?? ""
                if type.hasSuffix(" rebill") || (type.hasSuffix(" refund") && row["Refund Type"] == "") {
                    rebillNet[month + "|" + (row["Description"] ?? "") + "|" + type.prefix(3), default: 0]
                        += try Micros.parse(row["Amount (Buyer Currency)"] ?? "")
                    continue
                }
                if type.hasPrefix("Google fee") { fees += 1 }
                guard type.hasPrefix("Charge") else { continue }
                result[[month, row["Description"] ?? "", type, row["Refund Type"] ?? "", row["Amount (Buyer Currency)"] ?? ""]
                    .joined(separator: "|"), default: 0] += 1
            }
        }
        #expect(!rebillNet.isEmpty && rebillNet.values.allSatisfy { $0 == 0 }, "rebill sets net to zero")
        return (result, fees)
    }

    static func earningsRows(_ entries: [ReportEntry]) -> [String: Int] {
        var result: [String: Int] = [:]
        for entry in entries where !entry.isApple && !entry.isFree {
            let refund = entry.kind == .refund
            let key = [ReportCalendar.pacificMonth(entry.atMs), entry.orderId ?? "", refund ? "Charge refund" : "Charge",
                       refund ? (entry.isPartialRefund ? "Partial" : "Full") : "", ReportDecimal.format(refund ? -entry.amountMicros : entry.amountMicros)].joined(separator: "|")
            result[key, default: 0] += 1
        }
        return result
    }

    static func salesRows(_ reports: StoreReportSet) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for (path, bytes) in reports.files where path.hasPrefix("google/sales/") {
            let month = String(path.dropFirst("google/sales/salesreport_".count).prefix(6))
            let table = try ReportFileReader.zippedCSV(bytes).1
            for index in table.rows.indices {
                let row = table.row(index)
                result[[month, row["Order Number"] ?? "", row["Financial Status"] ?? "", row["Charged Amount"] ?? ""].joined(separator: "|"),
                       default: 0] += 1
            }
        }
        return result
    }

    static func salesRows(_ entries: [ReportEntry]) -> [String: Int] {
        var result: [String: Int] = [:]
        for entry in entries where !entry.isApple && !entry.isFree {
            let key = [ReportCalendar.pacificMonth(entry.atMs), entry.orderId ?? "", entry.kind == .refund ? "Refund" : "Charged",
                       ReportDecimal.format(entry.amountMicros)].joined(separator: "|")
            result[key, default: 0] += 1
        }
        return result
    }

    /// Epoch ms of `2026-11-22T18:18:16.996Z`.
    static func ms(_ text: String) throws -> Int64 {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
        guard digits.count == 7 else { throw ReportFileReader.Failure(description: "bad instant \(text)") }
        return WorldClock.days(year: digits[0], month: digits[1], day: digits[2]) * 86_400_000
            + digits[3] * 3_600_000 + digits[4] * 60_000 + digits[5] * 1_000 + digits[6]
    }
}
