/// Apple's payments summary (`financial_report.csv` from the Payments page), one per fiscal period, in the
/// layout with `Exchange Rate` and `Proceeds`: a quoted title holding a TAB, one line per finance-report
/// region with every number quoted (thousands separators included) and an empty last column, then the
/// bank total line `,,,,,,,,,"1,234.56" USD,,`. `Units Sold` nets returns; the proceeds convert `Total Owed`
/// at the world's fixed rates into the bank currency (US dollars).
enum ApplePaymentsReport {
    static let columns = ["Region (Currency)", "Units Sold", "Earned", "Pre-Tax Subtotal", "Input Tax", "Adjustments",
                          "Withholding Tax", "Total Owed", "Exchange Rate", "Proceeds", "Bank Account Currency"]

    /// The summaries of every period of `financial`, keyed by path under `reports/` (`apple/payments/financial_report_<MMYY>.csv`).
    static func files(_ financial: AppleFinancialReport) -> [String: String] {
        var result: [String: String] = [:]
        for (period, rows) in financial.periods {
            var regions: [String: (currency: String, units: Int64, earned: Int64)] = [:]
            for (row, quantity) in rows {
                let region = ReportProducts.appleRegion(row.currency)
                let extended = quantity * ReportProducts.appleProceeds(abs(row.priceMicros), currency: row.currency)
                regions[region, default: (row.currency, 0, 0)].units += quantity
                regions[region, default: (row.currency, 0, 0)].earned += extended
            }
            result["apple/payments/financial_report_\(period.fileMMYY).csv"] = render(period, regions)
        }
        return result
    }

    static func render(_ period: AppleFiscalPeriod, _ regions: [String: (currency: String, units: Int64, earned: Int64)]) -> String {
        let width = columns.count + 1
        func line(_ cells: [String]) -> String {
            (cells + Array(repeating: "", count: max(0, width - cells.count))).joined(separator: ",") + "\n"
        }
        func quoted(_ text: String) -> String { "\"" + text + "\"" }
        var text = line([quoted("App Store Connect - Payments and Financial Reports\t(\(period.monthLabel))")])
        text += line(columns)
        var bank: Int64 = 0
        let ordered = regions.sorted { ReportProducts.applePaymentsRegion($0.key) < ReportProducts.applePaymentsRegion($1.key) }
        for (region, value) in ordered {
            let rate = ReportProducts.usdRateMicros(value.currency)
            let proceeds = ReportDecimal.cents(ReportDecimal.roundDiv(value.earned * rate, 1_000_000))
            bank += proceeds
            text += line([quoted("\(ReportProducts.applePaymentsRegion(region)) (\(value.currency))"), quoted(String(value.units)),
                          quoted(grouped(value.earned)), quoted(grouped(value.earned)), quoted("0.00"), quoted("0.00"), quoted("0.00"),
                          quoted(grouped(value.earned)), quoted(ReportDecimal.format(rate, places: 6)), quoted(grouped(proceeds)),
                          quoted(ReportProducts.bankCurrency)])
        }
        text += line([])
        text += line(Array(repeating: "", count: 9) + [quoted(grouped(bank)) + " " + ReportProducts.bankCurrency])
        return text
    }

    /// Two decimals with thousands separators (`1,234.56`, `-0.70`).
    static func grouped(_ micros: Int64) -> String {
        let plain = ReportDecimal.format(micros)
        let negative = plain.hasPrefix("-")
        let digits = negative ? plain.dropFirst() : Substring(plain)
        let whole = Array(digits.prefix { $0 != "." })
        var out = ""
        for (index, character) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (negative ? "-" : "") + out + digits.drop { $0 != "." }
    }
}
