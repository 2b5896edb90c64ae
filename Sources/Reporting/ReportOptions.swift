import Foundation
import JobKit
import Postgres

/// The `build-reports` command-line options and how they become `ReportSettings`.
public enum ReportOptions {
    /// The job's own options, shown by `--help`.
    public static let all: [JobOption] = [
        .value("period", placeholder: "YYYY-MM", help: "report one month (instead of --from/--to)"),
        .value("from", placeholder: "YYYY-MM", help: "first month reported (default: 23 months before the --to month)"),
        .value("to", placeholder: "YYYY-MM", help: "last month reported (default and latest: the as-of month)"),
        .value("currency", placeholder: "ISO", help: "reporting currency, an ISO 4217 code (default USD)"),
        .value("basis", placeholder: "corrected|known", help: "corrected: every row effective by --as-of (default); known: only rows also recorded by then"),
        .value("out", placeholder: "DIR", help: "output folder (default $REPORT_OUT_DIR/<as-of date>/, else Reports/out/<as-of date>/)"),
        .value("format", placeholder: "csv,xlsx,html", help: "what to write (default csv,xlsx,html)"),
        .value("sql-dir", placeholder: "DIR", help: "folder of the report SQL files (default $REPORT_SQL_DIR, else the installed share/iap-pipeline/reports)"),
        .flag("raw-ids", help: "write identifiers unmasked"),
        .flag("detail-sheets", help: "also give the detail reports (mrr_movements) a workbook sheet; their CSVs are always written"),
        .flag("full", help: "recompute every month instead of reusing the stored complete months (and store them anew)"),
    ]

    /// The default span: 24 months ending at the last month.
    public static let defaultMonths = 24

    /// The settings of a run as of `asOf` from parsed `arguments` (the output folder defaults to `REPORT_OUT_DIR` of
    /// `environment`, else a path relative to the working directory; the SQL folder to `REPORT_SQL_DIR`, else the
    /// `reports` folder of the binary's share folder, `ShareDirectory`, which `IAP_SHARE_DIR` overrides); throws
    /// `JobError.usage` (exit 2) naming the bad option.
    public static func settings(_ arguments: JobArguments, asOf: Date, environment: [String: String] = [:]) throws -> ReportSettings {
        let values = arguments.values
        let asOfMonth = ReportMonth(containing: asOf)
        func month(_ name: String) throws -> ReportMonth? {
            guard let text = values[name] else { return nil }
            guard let month = ReportMonth(text: text) else { throw JobError.usage("--\(name) takes a month YYYY-MM, not '\(text)'") }
            guard month <= asOfMonth else { throw JobError.usage("--\(name) \(text) is after the as-of month \(asOfMonth)") }
            return month
        }
        let first: ReportMonth, last: ReportMonth
        if let period = try month("period") {
            guard values["from"] == nil, values["to"] == nil else { throw JobError.usage("--period cannot be combined with --from/--to") }
            (first, last) = (period, period)
        } else {
            last = try month("to") ?? asOfMonth
            first = try month("from") ?? last.advanced(by: -(defaultMonths - 1))
            guard first <= last else { throw JobError.usage("--from \(first) is after --to \(last)") }
        }
        let currency = values["currency"] ?? "USD"
        guard currency.count == 3, currency.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw JobError.usage("--currency takes an ISO 4217 code such as USD, not '\(currency)'")
        }
        let basisText = values["basis"] ?? ReportBasis.corrected.rawValue
        guard let basis = ReportBasis(rawValue: basisText) else { throw JobError.usage("--basis is corrected or known, not '\(basisText)'") }
        let formats = (values["format"] ?? "csv,xlsx,html").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !formats.isEmpty, formats.allSatisfy({ ["csv", "xlsx", "html"].contains($0) }) else {
            throw JobError.usage("--format is a comma-separated list of csv, xlsx and html, not '\(values["format"] ?? "")'")
        }
        let asOfDate = String(PostgresTimestamp.iso8601(asOf).prefix(10))
        let out = values["out"] ?? ((environment["REPORT_OUT_DIR"] ?? "Reports/out") + "/" + asOfDate)
        return ReportSettings(asOf: asOf, firstMonth: first, lastMonth: last, currency: currency, basis: basis,
                              outputFolder: URL(fileURLWithPath: out, isDirectory: true),
                              sqlFolder: try sqlFolder(values["sql-dir"] ?? environment["REPORT_SQL_DIR"], environment: environment),
                              writeCSV: formats.contains("csv"), writeXLSX: formats.contains("xlsx"),
                              writeHTML: formats.contains("html"), detailSheets: arguments.flags.contains("detail-sheets"),
                              rawIdentifiers: arguments.flags.contains("raw-ids"), recomputeAll: arguments.flags.contains("full"))
    }

    /// `--sql-dir` / `REPORT_SQL_DIR` when given, else the share folder's `reports`.
    static func sqlFolder(_ given: String?, environment: [String: String]) throws -> URL {
        if let given { return URL(fileURLWithPath: given, isDirectory: true) }
        do {
            return try ShareDirectory.current(environment: environment).reports
        } catch {
            throw JobError.usage("no report SQL folder: pass --sql-dir or set REPORT_SQL_DIR (\(error))")
        }
    }
}
