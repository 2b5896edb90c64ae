/// One App Store Connect report download: `GET /v1/financeReports` or `GET /v1/salesReports` with its filters.
public enum AppStoreConnectReportQuery: Sendable, Hashable {
    /// Financial Report (`reportType` FINANCIAL or FINANCE_DETAIL) of a region (`ZZ` consolidated) for a fiscal
    /// `reportDate` `YYYY-MM` (MM the fiscal period, 01 = October).
    case finance(reportType: String, regionCode: String, reportDate: String, vendorNumber: String)
    /// Sales and Trends report: e.g. SUBSCRIBER / DETAILED / DAILY / version 1_3 for a day `YYYY-MM-DD`, or
    /// SALES / SUMMARY / MONTHLY for a month `YYYY-MM`.
    case sales(reportType: String, reportSubType: String, frequency: String, reportDate: String, version: String?, vendorNumber: String)

    /// The Subscriber report of one day (SUBSCRIBER, DETAILED, DAILY, version 1_3).
    public static func subscriber(day: String, vendorNumber: String) -> AppStoreConnectReportQuery {
        .sales(reportType: "SUBSCRIBER", reportSubType: "DETAILED", frequency: "DAILY", reportDate: day, version: "1_3",
               vendorNumber: vendorNumber)
    }

    /// The Subscription report of one day (SUBSCRIPTION, SUMMARY, DAILY, version 1_3).
    public static func subscription(day: String, vendorNumber: String) -> AppStoreConnectReportQuery {
        .sales(reportType: "SUBSCRIPTION", reportSubType: "SUMMARY", frequency: "DAILY", reportDate: day, version: "1_3",
               vendorNumber: vendorNumber)
    }

    /// The Subscription Event report of one day (SUBSCRIPTION_EVENT, SUMMARY, DAILY, version 1_3).
    public static func subscriptionEvent(day: String, vendorNumber: String) -> AppStoreConnectReportQuery {
        .sales(reportType: "SUBSCRIPTION_EVENT", reportSubType: "SUMMARY", frequency: "DAILY", reportDate: day, version: "1_3",
               vendorNumber: vendorNumber)
    }

    /// The Summary Sales report of one month (SALES, SUMMARY, MONTHLY, version 1_0).
    public static func summarySales(month: String, vendorNumber: String) -> AppStoreConnectReportQuery {
        .sales(reportType: "SALES", reportSubType: "SUMMARY", frequency: "MONTHLY", reportDate: month, version: "1_0",
               vendorNumber: vendorNumber)
    }

    /// The name the call is logged and counted under.
    public var label: String {
        switch self {
        case .finance: return "apple.financeReports"
        case .sales: return "apple.salesReports"
        }
    }

    /// Path and query; filter names keep their brackets, values are percent-encoded.
    public var pathAndQuery: String {
        switch self {
        case let .finance(type, region, date, vendor):
            return "/v1/financeReports" + Self.filters([("regionCode", region), ("reportDate", date), ("reportType", type),
                                                        ("vendorNumber", vendor)])
        case let .sales(type, subType, frequency, date, version, vendor):
            var items = [("frequency", frequency), ("reportDate", date), ("reportSubType", subType), ("reportType", type),
                         ("vendorNumber", vendor)]
            if let version { items.append(("version", version)) }
            return "/v1/salesReports" + Self.filters(items)
        }
    }

    static func filters(_ items: [(String, String)]) -> String {
        "?" + items.map { "filter[\($0.0)]=" + AppStoreEndpoint.segment($0.1) }.joined(separator: "&")
    }
}
