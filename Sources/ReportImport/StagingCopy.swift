import JobKit
import Postgres
import StoreExports

/// Streams a parsed report's rows into its typed staging table with `COPY … FROM STDIN`.
enum StagingCopy {
    /// The staging table of each report kind (Google earnings: its facts, migration 0033).
    static func table(_ kind: StoreReportKind) -> String {
        switch kind {
        case .appleFinancial: return "apple_financial_row"
        case .applePayments: return "apple_payments_row"
        case .appleSubscriber: return "apple_subscriber_row"
        case .appleSubscription: return "apple_subscription_row"
        case .appleSubscriptionEvent: return "apple_subscription_event_row"
        case .appleSummarySales: return "apple_sales_summary_row"
        case .googleEarnings: return "google_earnings_fact"
        case .googleEstimatedSales: return "google_estimated_sales_row"
        }
    }

    /// Copies every row of `report` under `fileID`; returns the rows loaded.
    static func load(_ report: ParsedReport, fileID: Int64, into database: PostgresConnection) throws -> Int {
        let id = String(fileID)
        switch report.content {
        case .applePayments(let summary):
            return try database.copyIn("""
                COPY apple_payments_row (report_file_id, line, region, currency, units_sold, earned_micros, pre_tax_subtotal_micros,
                input_tax_micros, adjustments_micros, withholding_tax_micros, total_owed_micros, balance_micros, exchange_rate,
                proceeds_micros, bank_account_currency) FROM STDIN
                """) { copy in
                for r in summary.rows {
                    try copy.writeRow([id, String(r.line), r.region, r.currency, String(r.unitsSold), String(r.earnedMicros),
                                       r.preTaxSubtotalMicros.map(String.init), r.inputTaxMicros.map(String.init),
                                       r.adjustmentsMicros.map(String.init), r.withholdingTaxMicros.map(String.init),
                                       String(r.totalOwedMicros), r.balanceMicros.map(String.init), r.exchangeRate?.description,
                                       r.proceedsMicros.map(String.init), r.bankAccountCurrency])
                }
            }
        case .appleSalesAndTrends:
            preconditionFailure("Apple's financial and Sales and Trends reports are staged while they are read (AppleReportStaging)")
        case .googleEarnings:
            preconditionFailure("Google earnings are staged while they are read (GoogleEarningsStaging)")
        case .googleEstimatedSales:
            preconditionFailure("Google estimated sales are staged while they are read (GoogleEstimatedSalesStaging)")
        }
    }

    /// Epoch seconds as a UTC timestamp literal (`2019-11-01 10:29:44+00`).
    static func epochText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return CalendarDate(daysSince1970: Int(days)).description + " " + two(rest / 3600) + ":" + two(rest / 60 % 60) + ":"
            + two(rest % 60) + "+00"
    }
}
