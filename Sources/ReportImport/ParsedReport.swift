import StoreExports

/// One report file read and parsed, with its identity and content hash, ready to stage.
public struct ParsedReport: Sendable {
    /// The rows of one of the report kinds.
    public enum Content: Sendable {
        case applePayments(ApplePaymentsSummary)
        /// Apple's financial reports and Subscriber, Subscription, Subscription Event and Summary Sales reports are
        /// staged while they are read (`ReportLoader.loadStreamed`); a read alone tallies them.
        case appleSalesAndTrends(StreamTally)
        /// Google earnings are staged while they are read (`ReportLoader.loadGoogleEarnings`); a read alone tallies them.
        case googleEarnings(GoogleEarningsTally)
        /// Google estimated sales are staged while they are read (`ReportLoader.loadStreamed`); a read alone tallies them.
        case googleEstimatedSales(StreamTally)
    }

    /// The path read.
    public let path: String
    /// Which report the file is.
    public let identity: ReportIdentity
    /// SHA-256 (hex) of the decompressed content.
    public let contentSHA256: String
    /// The parsed rows.
    public let content: Content

    /// The number of staged rows.
    public var rowCount: Int {
        switch content {
        case .applePayments(let summary): return summary.rows.count
        case .appleSalesAndTrends(let tally): return tally.rows
        case .googleEarnings(let tally): return tally.rows
        case .googleEstimatedSales(let tally): return tally.rows
        }
    }
}
