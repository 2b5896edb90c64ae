/// The parts of an Apple Financial Report file name `<vendor>_<MMYY>_<region>.txt` (or `.txt.gz` / `.gz`).
public struct AppleReportFileName: Sendable, Hashable {
    /// Vendor number (`45545510`).
    public let vendor: String
    /// The fiscal period the `MMYY` names (`0914` → FY2014 period 12).
    public let period: FiscalPeriod
    /// Region code (`CH`, `US`, `ZZ` for the consolidated file, …).
    public let region: String

    /// Reads `name` (a path is allowed; only the last component counts), or nil when it is not shaped like one.
    public init?(_ name: String) {
        var base = Substring(name.split(separator: "/").last ?? "")
        for suffix in [".gz", ".txt"] where base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        let parts = base.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let period = FiscalPeriod(fileMMYY: parts[1]),
              (2...3).contains(parts[2].count), parts[2].utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) }) else { return nil }
        vendor = String(parts[0])
        self.period = period
        region = String(parts[2])
    }

    /// The canonical `.txt` name for these parts.
    public var fileName: String { "\(vendor)_\(period.fileMMYY)_\(region).txt" }
}
