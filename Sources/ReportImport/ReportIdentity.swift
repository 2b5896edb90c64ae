import StoreExports

/// Which report a file is: its canonical key (the file name without container suffixes), period, region and
/// vendor. Two files with one key and different content are a report and its correction.
public struct ReportIdentity: Sendable, Equatable {
    /// The report kind.
    public let kind: StoreReportKind
    /// `report_file.report_key`.
    public let key: String
    /// Fiscal period (`reportDate`), month (`YYYY-MM`), day (`YYYY-MM-DD`) or the file's own label.
    public let period: String
    /// Region code (Apple financial reports), else empty.
    public let region: String
    /// Vendor number or developer ID when the name carries one, else empty.
    public let vendor: String

    /// `apple` or `google`.
    public var provider: String { kind == .googleEarnings || kind == .googleEstimatedSales ? "google" : "apple" }

    /// The file name without `.gz`, `.zip`, `.csv` and `.txt` suffixes.
    static func stem(_ fileName: String) -> String {
        var base = Substring(fileName.split(separator: "/").last ?? "")
        var changed = true
        while changed {
            changed = false
            for suffix in [".gz", ".zip", ".csv", ".txt"] where base.hasSuffix(suffix) {
                base = base.dropLast(suffix.count)
                changed = true
            }
        }
        return String(base)
    }

    /// The identity of `fileName` of `kind`; `paymentsLabel` is the payments summary's period label, `contentSHA256`
    /// the content hash (the key of an unlabelled payments summary).
    static func of(_ fileName: String, kind: StoreReportKind, paymentsLabel: String? = nil, contentSHA256: String = "") -> ReportIdentity {
        let stem = stem(fileName)
        let parts = stem.split(separator: "_").map(String.init)
        switch kind {
        case .appleFinancial:
            if let name = AppleReportFileName(fileName) {
                return ReportIdentity(kind: kind, key: name.fileName, period: name.period.reportDate,
                                      region: name.region, vendor: name.vendor)
            }
        case .applePayments:
            // The title's period names the report; without one a file can only be matched by its content.
            // The period is stored as the financial reports have it (the fiscal `reportDate` named after the
            // title's month); the title text stays in the key.
            let label = paymentsLabel ?? ""
            return ReportIdentity(kind: kind, key: label.isEmpty ? stem + " #" + contentSHA256 : "financial_report (\(label))",
                                  period: paymentsFiscalPeriod(label)?.reportDate ?? label, region: "", vendor: "")
        case .appleSubscriber, .appleSubscription, .appleSubscriptionEvent, .appleSummarySales:
            // Subscriber_<vendor>_<YYYYMMDD>…, Subscription[_Event]_<vendor>_<YYYYMMDD>[_V1_3], S_D_<vendor>_<YYYYMMDD>
            if let dateIndex = parts.lastIndex(where: { $0.count == 8 && $0.allSatisfy(\.isNumber) }), dateIndex > 0 {
                let digits = Array(parts[dateIndex])
                let day = String(digits[0..<4]) + "-" + String(digits[4..<6]) + "-" + String(digits[6..<8])
                return ReportIdentity(kind: kind, key: stem, period: day, region: "", vendor: parts[dateIndex - 1])
            }
        case .googleEarnings, .googleEstimatedSales:
            // earnings_YYYYMM_<dev>-<n>, salesreport_YYYYMM
            if parts.count >= 2, parts[1].count == 6, parts[1].allSatisfy(\.isNumber) {
                let month = String(parts[1].prefix(4)) + "-" + String(parts[1].suffix(2))
                let developer = parts.count >= 3 ? String(parts[2].split(separator: "-").first ?? "") : ""
                return ReportIdentity(kind: kind, key: stem, period: month, region: "", vendor: developer)
            }
        }
        return ReportIdentity(kind: kind, key: stem, period: "", region: "", vendor: "")
    }

    /// The fiscal period a payments summary's title month names (`September, 2014` → FY2014 P12), nil when the
    /// title has no English month.
    static func paymentsFiscalPeriod(_ label: String) -> FiscalPeriod? {
        guard let (year, month) = FXRateSources.titleMonth(label) else { return nil }
        return FiscalPeriod(namedMonth: month, year: year)
    }
}
