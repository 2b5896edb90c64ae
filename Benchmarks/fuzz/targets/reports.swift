// Fuzz target: the six store report parsers (TSV and CSV). The first byte picks the parser, the rest is the file.
// Built and run by Benchmarks/fuzz/run.sh; a parser may reject any input (StoreReportError), never crash.
import StoreExports

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReports(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 6 {
    case 0: _ = try? AppleFinancialReportParser.parse(bytes, file: "fuzz.txt")
    case 1: _ = try? ApplePaymentsSummaryParser.parse(bytes, file: "financial_report.csv")
    case 2: _ = try? AppleSubscriberReportParser.parse(bytes, file: "Subscriber_1_20250101.txt")
    case 3: _ = try? AppleSummarySalesParser.parse(bytes, file: "S_D_1_20250101.txt")
    case 4: _ = try? GoogleEarningsParser.parse(bytes, file: "earnings_202501_1-0.csv")
    default: _ = try? GoogleEstimatedSalesParser.parse(bytes, file: "salesreport_202501.csv")
    }
    return 0
}
