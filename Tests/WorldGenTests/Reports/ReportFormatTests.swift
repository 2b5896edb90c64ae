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
        let vendor = try Self.reports.get().appleVendorNumber
        var returnBeforeSale = false, integerTotals = 0, promoRows = 0
        for (path, bytes) in files {
            #expect(path.range(of: #"^apple/finance/\#(vendor)_\d{4}_(ZZ|US|EU|GB|JP|CA|AU|BR|IN)\.txt$"#, options: .regularExpression) != nil, "\(path)")
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
                // Offer-code redemptions: `S` rows with Promo Code `CR` and 0.00 amounts; every other row has proceeds.
                let promo = row["Promo Code"] == "CR"
                if promo { promoRows += 1 }
                #expect((promo ? share == 0 && price == 0 && quantity > 0 : share > 0) && extended == quantity * share, "\(path) row \(index)")
                #expect((row["Sales or Return"] == "R") == (quantity < 0) && (price < 0) == (quantity < 0), "\(path) row \(index)")
                #expect(row["Partner Share Currency"] == row["Customer Currency"])
                units += max(0, quantity)
                amount += extended
                if row["Sales or Return"] == "R", report.table.rows[(index + 1)...].contains(where: { $0[9] == "S" }) { returnBeforeSale = true }
                let key = (row["Country Of Sale"] ?? "") + "\t" + (row["Customer Currency"] ?? "")
                summary[key, default: (0, 0)].0 += quantity
                summary[key, default: (0, 0)].1 += extended
            }
            #expect(report.totalUnits == units, "\(path)")
            #expect(report.totalAmount == amount, "\(path)")
            if path.hasSuffix("_ZZ.txt") {
                #expect(report.summary.first == ["Country Of Sale", "Partner Share Currency", "Quantity", "Extended Partner Share"])
                let parsed = try report.summary.dropFirst().map { ($0[0] + "\t" + $0[1], Int64($0[2]) ?? 0, try Micros.parse($0[3])) }
                #expect(parsed.count == summary.count)
                for (key, quantity, extended) in parsed { #expect(summary[key].map { $0 == (quantity, extended) } == true, "\(key)") }
            } else {
                #expect(report.summary.isEmpty)
                #expect(Set(try report.table.values("Customer Currency")).count == 1, "one currency per region file")
                let text = try ReportFileReader.text(bytes)
                let footer = text.split(separator: "\n").first { $0.hasPrefix("Total_Amount\t") }.map(String.init) ?? ""
                // Whole-yen totals are written without decimals, like a real JPY file (`Total_Amount<TAB>179`).
                let wholeYen = path.hasSuffix("_JP.txt") && report.totalAmount % 1_000_000 == 0
                #expect(footer.contains(".") == !wholeYen, "\(path): \(footer)")
                if wholeYen { integerTotals += 1 }
            }
            let period = try #require(report.table.rows.first)
            let mmyy = String(path.split(separator: "_")[1])
            #expect(report.table.rows.allSatisfy { $0[0] == period[0] && $0[1] == period[1] })
            let start = try Self.day(period[0])
            #expect(AppleFiscalPeriod.containing(day: start).fileMMYY == mmyy)
            #expect(AppleFiscalPeriod.containing(day: start).endText == period[1])
        }
        #expect(returnBeforeSale, "rows are unsorted: some return precedes a sale")
        #expect(promoRows > 0, "offer-code redemptions are written as CR rows")
        #expect(integerTotals > 0, "some JPY file has a whole-yen Total_Amount")
    }

    @Test func fileMMYYNamesThePeriodsMonth() {
        #expect(AppleFiscalPeriod.containing(year: 2014, month: 9, day: 1).fileMMYY == "0914")
        #expect(AppleFiscalPeriod.containing(year: 2025, month: 11, day: 15).fileMMYY == "1125")
        #expect(AppleFiscalPeriod.containing(year: 2024, month: 9, day: 29).fileMMYY == "1024")
        #expect(AppleFiscalPeriod.containing(year: 2024, month: 9, day: 29).monthLabel == "October, 2024")
    }

    @Test func paymentsSummariesTieToTheFinancialReports() throws {
        let reports = try Self.reports.get()
        let payments = reports.files.filter { $0.key.hasPrefix("apple/payments/") }
        #expect(payments.count > 2)
        for (path, bytes) in payments {
            let mmyy = String(path.dropFirst("apple/payments/financial_report_".count).prefix(4))
            let table = try ReportFileReader.csv(bytes)
            #expect(table.header.first?.hasPrefix("App Store Connect - Payments and Financial Reports\t(") == true)
            let header = table.rows[0]
            #expect(header == ApplePaymentsReport.columns + [""])
            var bank: Int64 = 0
            for cells in table.rows.dropFirst() where !cells[0].isEmpty {
                let row = Dictionary(uniqueKeysWithValues: zip(header, cells))
                let currency = String(try #require(row["Region (Currency)"]).suffix(4).prefix(3))
                let region = ReportProducts.appleRegion(currency)
                let financial = try ReportFileReader.appleFinancial(try #require(reports.files["apple/finance/\(reports.appleVendorNumber)_\(mmyy)_\(region).txt"]))
                let earned = try Micros.parse((row["Earned"] ?? "").filter { $0 != "," })
                #expect(earned == financial.totalAmount)
                let net = try financial.table.values("Quantity").reduce(Int64(0)) { $0 + (Int64($1) ?? 0) }
                #expect(Int64(row["Units Sold"] ?? "") == net)
                let rate = try Micros.parse(row["Exchange Rate"] ?? "")
                let proceeds = try Micros.parse((row["Proceeds"] ?? "").filter { $0 != "," })
                #expect(proceeds == ReportDecimal.cents(ReportDecimal.roundDiv(earned * rate, 1_000_000)))
                bank += proceeds
            }
            let last = try #require(table.rows.last)
            #expect(last[9] == ApplePaymentsReport.grouped(bank) + " USD")
        }
        #expect(ApplePaymentsReport.grouped(-1_234_567_890_000) == "-1,234,567.89")
    }

    @Test func subscriberFilesParse() throws {
        let files = try Self.reports.get().files.filter { $0.key.hasPrefix("apple/sales/") }
        #expect(files.count > 30)
        for (path, bytes) in files {
            let table = try ReportFileReader.tabSeparated(bytes)
            #expect(table.header == Self.columns(Self.subscriberColumns))
            let digits = String(path.dropFirst("apple/sales/Subscriber_\(try Self.reports.get().appleVendorNumber)_".count).prefix(8))
            #expect(path == "apple/sales/Subscriber_\(try Self.reports.get().appleVendorNumber)_\(digits).txt")
            let day = digits.prefix(4) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
            #expect(try table.values("Event Date").allSatisfy { $0 == day })
            #expect(bytes.last != UInt8(ascii: "\n"), "the last line has no line end")
            #expect(try ReportFileReader.text(bytes).contains("\t \t"), "blank cells hold a single space")
            for index in table.rows.indices {
                let row = table.row(index)
                let price = try Micros.parse(row["Customer Price"] ?? "")
                #expect((row["Refund"] == "Yes") == (price < 0))
                #expect((row["Purchase Date"] ?? "").isEmpty == (row["Refund"] != "Yes"))
                #expect((row["Purchase Date"] ?? "") <= day)
            }
        }
    }

    @Test func googleZipsParse() throws {
        let reports = try Self.reports.get()
        let earnings = reports.files.filter { $0.key.hasPrefix("google/earnings/") }
        let sales = reports.files.filter { $0.key.hasPrefix("google/sales/") }
        #expect(earnings.count >= 3 && earnings.count == sales.count)
        var splitTax = false, rebills = 0
        for (path, bytes) in earnings {
            let month = String(path.dropFirst("google/earnings/earnings_".count).prefix(6))
            #expect(path == "google/earnings/earnings_\(month)_\(reports.googleDeveloperId)-0.zip")
            let (name, table) = try ReportFileReader.zippedCSV(bytes)
            #expect(name == "PlayApps_\(month).csv")
            #expect(table.header == Self.columns(Self.earningsColumns))
            var taxRows: [String: Int] = [:]
            for index in table.rows.indices {
                let row = table.row(index)
                let type = row["Transaction Type"] ?? ""
                if type == "Tax" { taxRows[row["Description"] ?? "", default: 0] += 1 }
                if type.hasSuffix(" rebill") { rebills += 1 }
                #expect(["", "Full"].contains(row["Refund Type"] ?? "-"), "\(row)")
                #expect(row["Refund Type"] != "Full" || type.hasSuffix(" refund"))
                #expect(!(row["Hardware"] ?? "").isEmpty && !(row["Group ID"] ?? "").isEmpty && !(row["Buyer State"] ?? "").isEmpty)
                #expect(row["Product Title"]?.hasSuffix(" (Example Fitness)") == true)
                if type.hasPrefix("Google fee") { #expect(row["Fee Description"] == "SUBSCRIPTIONS") }
                #expect(row["Description"]?.hasPrefix("GPA.") == true)
                #expect(row["Transaction Time"]?.range(of: #"^\d{1,2}:\d{2}:\d{2} (AM|PM) P[DS]T$"#, options: .regularExpression) != nil)
                #expect(row["Transaction Date"]?.contains(", 20") == true)
                let buyer = try Micros.parse(row["Amount (Buyer Currency)"] ?? "")
                let rate = try Micros.parse(row["Currency Conversion Rate"] ?? "")
                let merchant = try Micros.parse(row["Amount (Merchant Currency)"] ?? "")
                #expect(merchant == ReportDecimal.cents(ReportDecimal.roundDiv(buyer * rate, 1_000_000)))
                let positive = ["Charge", "Charge rebill", "Google fee refund", "Tax refund"].contains(type)
                #expect((buyer > 0) == positive, "\(row)")
            }
            splitTax = splitTax || taxRows.values.contains { $0 > 1 }
        }
        #expect(splitTax, "some order has several Tax rows")
        #expect(rebills > 0, "some order is rebilled")
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
