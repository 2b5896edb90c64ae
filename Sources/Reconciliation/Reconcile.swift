import Foundation
import JobKit
import Postgres

/// The `reconcile` job: compares the staged store reports of a period with billing_transaction, categorises every
/// unit, stores the run and writes its CSV files under `--out`. Without `--provider`/`--period`: every provider's
/// latest period with staged files (nothing to do when none are staged). A closed period is recomputed on its
/// close basis and must reproduce the closed files byte for byte.
public enum Reconcile {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("provider", placeholder: "apple|google", help: "the store (default: every store with staged files)"),
        .value("period", placeholder: "YYYY-MM", help: "Google: calendar month; Apple: fiscal period as reportDate (01 = October)"),
        .value("calendar-month", placeholder: "YYYY-MM", help: "Apple: the fiscal period ending in this calendar month"),
        .value("file", placeholder: "earnings.zip",
               help: "Google: read the period's earnings from this zip (streamed, not staged) instead of its staged files"),
        .value("out", placeholder: "folder", help: "folder for the CSV files (default: $RECONCILE_OUT; neither: results only in the database)"),
    ]

    /// The job definition.
    public static func definition() -> JobDefinition {
        JobDefinition(name: "reconcile", summary: "reconcile the stores' staged reports against billing_transaction",
                      options: options) { context in
            try run(context)
        }
    }

    static func run(_ context: JobContext) throws {
        let periods = try requestedPeriods(context)
        guard !periods.isEmpty else {
            context.note("skipped", "no staged report files")
            return
        }
        let out = (context.arguments.values["out"] ?? context.environment.optional("RECONCILE_OUT")).map { URL(fileURLWithPath: $0) }
        var failures: [String] = []
        for period in periods {
            let closed = try ClosedPeriods(database: context.database).lock(for: period)
            let stem = fileStem(period)
            let folder = context.dryRun ? nil : out
            if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            // The items go to the CSV (streamed, hashed), the totals and the stored rows as they are categorised.
            let sink = try ReconciliationItemSink(csvPath: folder?.appendingPathComponent(stem + ".csv"))
            let run: ReconciliationRun
            if let zip = context.arguments.values["file"] {
                guard closed == nil else { throw JobError.usage("\(period) is closed: it is recomputed from its staged files, not --file") }
                run = try Reconciler(database: context.database)
                    .reconcile(period, knownAt: try openKnownAt(context), earningsZip: zip, file: URL(fileURLWithPath: zip).lastPathComponent,
                               into: sink)
            } else {
                let result = try Reconciler(database: context.database)
                    .reconcile(period, knownAt: try closed?.closedAt ?? openKnownAt(context), only: closed?.files)
                for item in result.items { try sink.add(item) }
                run = ReconciliationRun(result)
            }
            let sha = try sink.csv.finish()
            let totals = sink.totals
            let prefix = "\(period.provider.rawValue)_"
            for (category, count) in totals.counts { context.count(prefix + category.rawValue, by: count) }
            context.count(prefix + "prior_period_adjustments", by: sink.priorPeriodAdjustments)
            context.count("periods")
            if let closed {
                if closed.itemsSHA256 != sha {
                    failures.append("\(period): closed period no longer reproduces (snapshot \(closed.itemsSHA256), now \(sha))")
                    continue
                }
                context.count("closed_periods_reproduced")
            } else if !context.dryRun {
                let id = try ReconciliationStore(database: context.database, actor: context.jobName)
                    .save(run, items: sink.stored, sha256: sha, jobRunID: context.runID)
                context.note("\(prefix)run_id", String(id))
            }
            if let folder {
                try sink.csv.commit()
                try AtomicFile.write(ReconciliationCSV.totals(totals), to: folder.appendingPathComponent(stem + "_totals.csv"))
            }
            for (currency, line) in totals.currencies.sorted(by: { $0.key < $1.key }) where line.variance != line.explained {
                failures.append("\(period) \(currency): variance \(line.variance) but categories explain \(line.explained)")
            }
            context.note("\(prefix)period", period.label)
        }
        if !failures.isEmpty { throw JobError.failed(failures.joined(separator: "; ")) }
    }

    /// What an open period is reconciled against: every row recorded by now (the database clock), or by `--as-of`
    /// when that is later. `recorded_at` is the database's own clock, so a run with a past `--as-of` still sees the
    /// rows the repair jobs wrote today; a closed period uses its close instant instead.
    static func openKnownAt(_ context: JobContext) throws -> Date {
        let now = try context.database.query("SELECT clock_timestamp() AS t").first.map { try $0.decode(Date.self, "t") }
        return max(context.asOf, now ?? context.asOf)
    }

    /// The file name (without extension) of a period's items file.
    public static func fileStem(_ period: ReconciliationPeriod) -> String {
        "reconciliation_\(period.provider.rawValue)_\(period.label)"
    }

    /// The periods to reconcile: the one asked for, or every provider's latest staged period.
    static func requestedPeriods(_ context: JobContext) throws -> [ReconciliationPeriod] {
        let values = context.arguments.values
        if values["file"] != nil, values["provider"] != "google" || values["period"] == nil {
            throw JobError.usage("--file reads one Google earnings zip: give it with --provider google --period YYYY-MM")
        }
        var providers = ReconciliationPeriod.Provider.allCases
        if let name = values["provider"] {
            guard let provider = ReconciliationPeriod.Provider(rawValue: name) else { throw JobError.usage("--provider must be apple or google") }
            providers = [provider]
        }
        if let month = values["calendar-month"] {
            guard values["period"] == nil, providers == [.apple] || values["provider"] == nil,
                  let period = ReconciliationPeriod.appleFiscal(forCalendarMonth: month) else {
                throw JobError.usage("--calendar-month YYYY-MM maps to an Apple fiscal period: give it alone or with --provider apple")
            }
            return [period]
        }
        if let label = values["period"] {
            guard values["provider"] != nil else { throw JobError.usage("--period needs --provider (the calendars differ)") }
            return try providers.map {
                guard let period = ReconciliationPeriod($0, label) else { throw JobError.usage("--period \(label) is not YYYY-MM") }
                return period
            }
        }
        return try providers.compactMap { provider in
            let kinds = provider == .apple ? ["appleFinancial"] : ["googleEarnings", "googleEstimatedSales"]
            let row = try context.database.query(
                "SELECT max(period) AS p FROM report_file WHERE kind = ANY($1::text[]) AND replaced_by IS NULL AND period ~ '^[0-9]{4}-[0-9]{2}$'",
                [PostgresTextArray(kinds)]).first
            return try row?.decodeIfPresent(String.self, "p").flatMap { ReconciliationPeriod(provider, $0) }
        }
    }
}
