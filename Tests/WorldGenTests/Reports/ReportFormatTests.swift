import Foundation
import Postgres
import Testing
@testable import WorldGen

/// Every generated report file parses back with the documented columns, and its footers validate.
@Suite struct ReportFormatTests {
    static let appleFinancialColumns = "Start Date, End Date, UPC, ISRC/ISBN, Vendor Identifier, Quantity, Partner Share, Extended Partner Share, Partner Share Currency, Sales or Return, Apple Identifier, Artist/Show/Developer/Author, Title, Label/Studio/Network/Developer/Publisher, Grid, Product Type Identifier, ISAN/Other Identifier, Country Of Sale, Pre-order Flag, Promo Code, Customer Price, Customer Currency"
    static let subscriberColumns = "Event Date, App Name, App Apple ID, Subscription Name, Subscription Apple ID, Subscription Group ID, Standard Subscription Duration, Subscription Offer Name, Promotional Offer ID, Subscription Offer Type, Subscription Offer Duration, Marketing Opt-In Duration, Customer Price, Customer Currency, Developer Proceeds, Proceeds Currency, Preserved Pricing, Proceeds Reason, Client, Device, Country, Subscriber ID, Subscriber ID Reset, Refund, Purchase Date, Units"
    static let earningsColumns = "Description, Transaction Date, Transaction Time, Tax Type, Transaction Type, Refund Type, Product Title, Product id, Product Type, Sku Id, Hardware, Buyer Country, Buyer State, Buyer Postal Code, Buyer Currency, Amount (Buyer Currency), Currency Conversion Rate, Merchant Currency, Amount (Merchant Currency), Base Plan ID, Offer ID, Group ID, First USD 1M Eligible, Service Fee %, Fee Description, Promotion ID"
    static let salesColumns = "Order Number, Order Charged Date, Order Charged Timestamp, Financial Status, Device Model, Product Title, Product ID, Product Type, SKU ID, Currency of Sale, Item Price, Taxes Collected, Charged Amount, City of Buyer, State of Buyer, Postal Code of Buyer, Country of Buyer, Base Plan ID, Offer ID, Group ID, First USD 1M Eligible, Promotion ID, Coupon Value, Discount Rate, Featured Product ID"

    static func columns(_ text: String) -> [String] { text.components(separatedBy: ", ") }

    static let reports: Result<StoreReportSet, Error> = Result {
        try StoreReports.render(try World.generate(WorldOptions(seed: 11, subscriptions: 500, months: 3, testShare: 0.03)),
                                shares: .all(0.05))
    }

    @Test func appleFinancialFilesParseAndFootersValidate() throws {
        let files = try Self.reports.get().files.filter { $0.key.hasPrefix("apple/finance/") }
        #expect(files.count > 4)
        for (path, bytes) in files {
            #expect(path.range(of: #"^apple/finance/FINANCIAL_(ZZ|US|EU|GB|JP|CA|AU|BR|IN)_\d{4}-\d{2}\.txt$"#, options: .regularExpression) != nil)
            let report = try ReportFileReader.appleFinancial(bytes)
            #expect(report.table.header == Self.columns(Self.appleFinancialColumns), "\(path)")
            #expect(report.totalRows == report.table.rows.count, "\(path)")
            var units: Int64 = 0, amount: Int64 = 0
            var summary: [String: (Int64, Int64)] = [:]
            for index in report.table.rows.indices {
                let row = report.table.row(index)
                let quantity = Int64(row["Quantity"] ?? "") ?? 0
                let share = try Micros.parse(row["Partner Share"] ?? "")
                let extended = try Micros.parse(row["Extended Partner Share"] ?? "")
                let price = try Micros.parse(row["Customer Price"] ?? "")
                #expect(share > 0 && extended == quantity * share, "\(path) row \(index)")
                #expect((row["Sales or Return"] == "R") == (quantity < 0) && (price < 0) == (quantity < 0), "\(path) row \(index)")
                #expect(row["Partner Share Currency"] == row["Customer Currency"])
                units += quantity
                amount += extended
                let key = (row["Country Of Sale"] ?? "") + "\t" + (row["Customer Currency"] ?? "")
                summary[key, default: (0, 0)].0 += quantity
                summary[key, default: (0, 0)].1 += extended
            }
            #expect(report.totalUnits == units, "\(path)")
            #expect(report.totalAmount == amount, "\(path)")
            if path.contains("_ZZ_") {
                #expect(report.summary.first == ["Country Of Sale", "Partner Share Currency", "Quantity", "Extended Partner Share"])
                let parsed = try report.summary.dropFirst().map { ($0[0] + "\t" + $0[1], Int64($0[2]) ?? 0, try Micros.parse($0[3])) }
                #expect(parsed.count == summary.count)
                for (key, quantity, extended) in parsed { #expect(summary[key].map { $0 == (quantity, extended) } == true, "\(key)") }
            } else {
                #expect(report.summary.isEmpty)
                #expect(Set(try report.table.values("Customer Currency")).count == 1, "one currency per region file")
            }
            let period = try #require(report.table.rows.first)
            let fiscal = String(path.dropFirst("apple/finance/FINANCIAL_ZZ_".count).prefix(7))
            #expect(report.table.rows.allSatisfy { $0[0] == period[0] && $0[1] == period[1] })
            let start = try Self.day(period[0])
            #expect(AppleFiscalPeriod.containing(day: start).reportDate == fiscal)
            #expect(AppleFiscalPeriod.containing(day: start).endText == period[1])
        }
    }

    @Test func subscriberFilesParse() throws {
        let files = try Self.reports.get().files.filter { $0.key.hasPrefix("apple/sales/") }
        #expect(files.count > 30)
        for (path, bytes) in files {
            let table = try ReportFileReader.tabSeparated(bytes)
            #expect(table.header == Self.columns(Self.subscriberColumns))
            let day = String(path.dropFirst("apple/sales/SUBSCRIBER_DETAILED_DAILY_1_3_".count).prefix(10))
            #expect(path == "apple/sales/SUBSCRIBER_DETAILED_DAILY_1_3_\(day).txt")
            #expect(try table.values("Event Date").allSatisfy { $0 == day })
            for index in table.rows.indices {
                let row = table.row(index)
                let price = try Micros.parse(row["Customer Price"] ?? "")
                #expect((row["Refund"] == "Yes") == (price < 0))
                #expect((row["Purchase Date"] ?? "") <= day)
            }
        }
    }

    @Test func googleZipsParse() throws {
        let reports = try Self.reports.get()
        let earnings = reports.files.filter { $0.key.hasPrefix("google/earnings/") }
        let sales = reports.files.filter { $0.key.hasPrefix("google/sales/") }
        #expect(earnings.count >= 3 && earnings.count == sales.count)
        for (path, bytes) in earnings {
            let month = String(path.dropFirst("google/earnings/earnings_".count).prefix(6))
            #expect(path == "google/earnings/earnings_\(month)_\(reports.googleDeveloperId)-0.zip")
            let (name, table) = try ReportFileReader.zippedCSV(bytes)
            #expect(name == "PlayApps_\(month).csv")
            #expect(table.header == Self.columns(Self.earningsColumns))
            for index in table.rows.indices {
                let row = table.row(index)
                #expect(row["Description"]?.hasPrefix("GPA.") == true)
                #expect(row["Transaction Time"]?.range(of: #"^\d{1,2}:\d{2}:\d{2} (AM|PM) P[DS]T$"#, options: .regularExpression) != nil)
                #expect(row["Transaction Date"]?.contains(", 20") == true)
                let buyer = try Micros.parse(row["Amount (Buyer Currency)"] ?? "")
                let rate = try Micros.parse(row["Currency Conversion Rate"] ?? "")
                let merchant = try Micros.parse(row["Amount (Merchant Currency)"] ?? "")
                #expect(merchant == ReportDecimal.cents(ReportDecimal.roundDiv(buyer * rate, 1_000_000)))
                let positive = ["Charge", "Google fee refund", "Tax refund"].contains(row["Transaction Type"] ?? "")
                #expect((buyer > 0) == positive, "\(row)")
            }
        }
        for (path, bytes) in sales {
            let month = String(path.dropFirst("google/sales/salesreport_".count).prefix(6))
            let (name, table) = try ReportFileReader.zippedCSV(bytes)
            #expect(name == "salesreport_\(month).csv")
            #expect(table.header == Self.columns(Self.salesColumns))
            for index in table.rows.indices {
                let row = table.row(index)
                #expect(try Micros.parse(row["Item Price"] ?? "") + Micros.parse(row["Taxes Collected"] ?? "")
                        == Micros.parse(row["Charged Amount"] ?? ""))
                #expect(["Charged", "Refund"].contains(row["Financial Status"] ?? ""))
                let stamp = Int64(row["Order Charged Timestamp"] ?? "") ?? 0
                #expect(ReportCalendar.isoDate(ReportCalendar.pacificDay(stamp * 1_000)) == row["Order Charged Date"])
            }
        }
    }

    /// Day number of `MM/DD/YYYY`.
    static func day(_ text: String) throws -> Int64 {
        let parts = text.split(separator: "/").compactMap { Int64($0) }
        guard parts.count == 3 else { throw ReportFileReader.Failure(description: "bad date \(text)") }
        return WorldClock.days(year: parts[2], month: parts[0], day: parts[1])
    }
}
