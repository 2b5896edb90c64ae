import JobKit
import Postgres
import XLSX

/// The cover sheet's rows: what the workbook covers, the definitions in brief, and per report its row count and the
/// SHA-256 of its SQL and CSV (so a reader can tell which inputs made the numbers).
enum ReportCover {
    /// The definitions in brief (in full: Reports/README.md).
    static let definitions: [String] = [
        "Snapshot: a month's figures are taken at its last instant, or at the as-of instant for the as-of month.",
        "MRR: what paying subscriptions bill per month (weekly ×52/12, yearly ÷12); trials, hold, test and PENDING purchases are not MRR; grace is.",
        "Amounts: exact sums of integer micros, rounded half to even once; shown in the row's currency with its ISO 4217 minor units.",
        "Reporting currency: converted with the month's fx_rate; a missing rate stops the run naming the month and currency.",
        "Basis corrected: every history row effective by the as-of instant; basis known: only rows also recorded by then.",
        "Identifiers are masked (first four … last four characters) unless the run used --raw-ids.",
        "Full definitions: Reports/README.md.",
    ]

    /// The cover rows: `headline` (the last month's numbers) first, then the run's metadata, the definitions and per
    /// report its rows and hashes.
    static func rows(settings: ReportSettings, results: [ReportResult], headline: [(String, Cell)] = []) throws -> [(String, Cell)] {
        var rows: [(String, Cell)] = headline + (headline.isEmpty ? [] : [("", .empty)]) + [
            ("Period", .text(settings.periodText)),
            ("As of", .text(PostgresTimestamp.iso8601(settings.asOf))),
            ("Basis", .text(settings.basis.rawValue)),
            ("Reporting currency", .text(settings.currency)),
            ("Identifiers", .text(settings.rawIdentifiers ? "raw" : "masked")),
            ("Pipeline version", .text(PipelineVersion.string)),
        ]
        for (index, line) in definitions.enumerated() { rows.append((index == 0 ? "Definitions" : "", .text(line))) }
        for result in results {
            let name = result.definition.name
            rows.append(("\(result.definition.sheet)", .text(result.definition.summary)))
            rows.append(("  rows", .integer(Int64(result.rows))))
            if result.truncatedInSheet {
                rows.append(("  sheet", .text("the first \(ReportWorkbook.maxDataRows) rows (Excel's limit); every row is in \(name).csv")))
            }
            rows.append(("  SHA-256 \(name).sql", .text(result.sqlSHA256)))
            rows.append(("  SHA-256 \(name).csv", .text(settings.writeCSV ? result.csvSHA256 : "not written (--format xlsx)")))
            for note in result.notes { rows.append(("  note", .text(note))) }
        }
        return rows
    }
}
