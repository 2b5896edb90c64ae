/// Which report a file is, from its name as the stores deliver it (a path is allowed).
public enum StoreReportKind: String, Sendable, CaseIterable {
    /// `<vendor>_<MMYY>_<region>.txt` (or `.gz`): Apple Financial Report.
    case appleFinancial
    /// `financial_report*.csv`: Apple payments summary.
    case applePayments
    /// `Subscriber_<vendor>_<date>…`: Apple Subscriber report.
    case appleSubscriber
    /// `Subscription_<vendor>_<date>…`: Apple Subscription report (daily counts of subscriptions by state).
    case appleSubscription
    /// `Subscription_Event_<vendor>_<date>…`: Apple Subscription Event report (daily event counts).
    case appleSubscriptionEvent
    /// `S_D_` / `S_W_` / `S_M_` / `S_Y_<vendor>_<date>…`: Apple Summary Sales report.
    case appleSummarySales
    /// `earnings_YYYYMM_<dev>-<n>.zip` (or the `.csv` inside): Google earnings.
    case googleEarnings
    /// `salesreport_YYYYMM.zip` (or the `.csv` inside): Google estimated sales.
    case googleEstimatedSales

    /// The kind a file name denotes, or nil for names no store uses.
    public init?(fileName: String) {
        let base = String(fileName.split(separator: "/").last ?? "")
        if AppleReportFileName(base) != nil {
            self = .appleFinancial
        } else if base.hasPrefix("financial_report"), base.hasSuffix(".csv") {
            self = .applePayments
        } else if base.hasPrefix("Subscriber_") {
            self = .appleSubscriber
        } else if base.hasPrefix("Subscription_Event_") {
            self = .appleSubscriptionEvent
        } else if base.hasPrefix("Subscription_"), !base.hasPrefix("Subscription_Offer_Code_") {
            self = .appleSubscription
        } else if ["S_D_", "S_W_", "S_M_", "S_Y_"].contains(where: { base.hasPrefix($0) }) {
            self = .appleSummarySales
        } else if base.hasPrefix("earnings_"), base.hasSuffix(".zip") || base.hasSuffix(".csv") {
            self = .googleEarnings
        } else if base.hasPrefix("salesreport_"), base.hasSuffix(".zip") || base.hasSuffix(".csv") {
            self = .googleEstimatedSales
        } else {
            return nil
        }
    }

    /// How the file's bytes are wrapped, from its name: `.gz` gzip, `.zip` a single-CSV zip, otherwise plain.
    public static func container(of fileName: String) -> ReportContainer {
        if fileName.hasSuffix(".gz") { return .gzip }
        if fileName.hasSuffix(".zip") { return .zip }
        return .plain
    }
}

/// How a report file's bytes are wrapped.
public enum ReportContainer: Sendable, Equatable {
    /// Plain text.
    case plain
    /// A gzip stream (`CompressedReader.streamGzip`).
    case gzip
    /// A zip holding one CSV (`CompressedReader.streamZipMemberPipelined`).
    case zip
}
