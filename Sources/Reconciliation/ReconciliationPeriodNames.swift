import StoreExports

/// How people read a report period: the calendar month, Apple's fiscal label and the period's first and last day.
extension ReconciliationPeriod {
    /// Apple's fiscal period (nil for Google).
    public var fiscalPeriod: FiscalPeriod? { provider == .apple ? FiscalPeriod(reportDate: label) : nil }

    /// The calendar month `YYYY-MM` the period stands for: Google's own month; for Apple the month the fiscal period
    /// is named after (the financial report file's MMYY, the month it ends in in most years).
    public var calendarMonth: String {
        guard let fiscal = fiscalPeriod else { return label }
        let (year, month) = fiscal.namedMonth
        return String(year) + "-" + (month < 10 ? "0\(month)" : "\(month)")
    }

    /// The first and last day of the period (US Pacific calendar days).
    public var days: ClosedRange<CalendarDate> {
        if let fiscal = fiscalPeriod { return AppleFiscalCalendar.dates(of: fiscal) }
        let first = PacificTime.day(ofUTCSeconds: start)
        return first...PacificTime.day(ofUTCSeconds: end - 1)
    }

    /// `2026-11` for Google; `2026-11 (FY2027 P02, 2026-11-01 to 2026-11-28)` for Apple.
    public var readableName: String {
        guard let fiscal = fiscalPeriod else { return label }
        return "\(calendarMonth) (\(fiscal), \(days.lowerBound) to \(days.upperBound))"
    }

    /// Apple's fiscal label in the form `--fiscal-period` takes: `FY2027-P02`.
    public static func fiscalArgument(_ fiscal: FiscalPeriod) -> String {
        "FY\(fiscal.fiscalYear)-P" + (fiscal.period < 10 ? "0\(fiscal.period)" : "\(fiscal.period)")
    }

    /// Reads `FY2027-P02` (also `FY2027 P02`): Apple's fiscal year 2027, period 02; nil for anything else.
    public static func appleFiscal(label text: String) -> ReconciliationPeriod? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, text.hasPrefix("FY"), bytes[6] == UInt8(ascii: "-") || bytes[6] == UInt8(ascii: " "),
              bytes[7] == UInt8(ascii: "P"), let year = Int(text.dropFirst(2).prefix(4)), let period = Int(text.suffix(2)),
              text.dropFirst(2).prefix(4).allSatisfy(\.isNumber), text.suffix(2).allSatisfy(\.isNumber),
              let fiscal = FiscalPeriod(fiscalYear: year, period: period) else { return nil }
        return ReconciliationPeriod(.apple, fiscal.reportDate)
    }

    /// The `report_file.kind`s a reconciliation of this provider reads.
    public var stagedKinds: [String] { provider == .apple ? ["appleFinancial"] : ["googleEarnings", "googleEstimatedSales"] }

    /// What finance would look for when nothing is staged: the report names of this provider.
    public var stagedKindsDescription: String {
        provider == .apple
            ? "Apple Financial Reports (<vendor>_\(fiscalPeriod?.fileMMYY ?? "MMYY")_<region>.txt) of \(readableName)"
            : "Google earnings (earnings_\(label.replacingOccurrences(of: "-", with: ""))_*.zip) or estimated sales (salesreport_\(label.replacingOccurrences(of: "-", with: "")).zip) of \(label)"
    }
}
