import Foundation
import JobKit
import Postgres

/// The `reconcile` job: compares the staged store reports of a period with billing_transaction, categorises every
/// unit, stores the run and writes its CSV files under `--out`. `--period YYYY-MM` is a calendar month for both stores
/// (Apple: the fiscal period named after it); `--fiscal-period FY2027-P02` is Apple's own label. An asked-for period
/// with nothing staged exits 3 naming the provider, the period and the report kinds it needs. Without
/// `--provider`/`--period`: every provider's latest period with staged files (nothing to do when none are staged). A closed period is recomputed on its
/// close basis and must reproduce the closed files byte for byte.
public enum Reconcile {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("provider", placeholder: "apple|google", help: "the store (default: every store with staged files)"),
        .value("period", placeholder: "YYYY-MM", help: "the calendar month (Apple: the fiscal period named after it, which ends in it)"),
        .value("fiscal-period", placeholder: "FY2027-P02", help: "Apple: the fiscal period by Apple's own label (P01 = October)"),
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
        let out = (context.arguments.values["out"] ?? context.environment.optional("RECONCILE_OUT")).map { URL(fileURLWithPath: $0) }
        // Checked before any query, so an unwritable folder fails at once and names itself.
        if let out, !context.dryRun { try OutputFolder.requireWritable(out, option: "--out (or RECONCILE_OUT)") }
        let periods = try requestedPeriods(context)
        guard !periods.isEmpty else {
            context.note("skipped", "no staged report files")
            return
        }
        let missing = try unstaged(periods, context)
        var failures: [String] = []
        for period in periods where !missing.contains(period) {
            let closed = try ClosedPeriods(database: context.database).lock(for: period)
            let stem = fileStem(period)
            let folder = context.dryRun ? nil : out
            if let folder {
                try FileSystemError.perform("create the folder", folder.path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
            }
            // The items go to the CSV (streamed, hashed), the totals and the stored rows as they are categorised.
            let sink = try ReconciliationItemSink(csvPath: folder?.appendingPathComponent(stem + ".csv"))
            var run = try Reconciler(database: context.database)
                .reconcile(period, knownAt: try closed?.closedAt ?? openKnownAt(context), only: closed?.files, into: sink)
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
                // An open period's run is stored as the run of its --as-of (what build-reports of that as-of shows),
                // though it read every row recorded by now: the nightly chain's repairs are recorded after its as-of.
                run.knownAt = context.asOf
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
            context.note("\(prefix)period", period.readableName)
        }
        if !failures.isEmpty { throw JobError.failed(failures.joined(separator: "; ")) }
        if !missing.isEmpty {
            throw JobError.nothingDone(missing.map { "nothing staged for \($0.provider.rawValue) \($0.readableName): import its \($0.stagedKindsDescription) first (import-exports --reports-dir)" }
                .joined(separator: "; "))
        }
    }

    /// What an open period is reconciled against: every row recorded by now (the database clock), or by `--as-of`
    /// when that is later. `recorded_at` is the database's own clock, so a run with a past `--as-of` (the nightly
    /// chain's, taken at its start) still sees the rows the repair jobs wrote since; the run is stored under its
    /// `--as-of`. A closed period uses its close instant instead.
    static func openKnownAt(_ context: JobContext) throws -> Date {
        max(context.asOf, try context.database.clockTimestamp() ?? context.asOf)
    }

    /// The asked-for periods with no current staged report file.
    static func unstaged(_ periods: [ReconciliationPeriod], _ context: JobContext) throws -> [ReconciliationPeriod] {
        return try periods.filter { period in
            try context.database.query(
                "SELECT 1 FROM report_file WHERE kind = ANY($1::text[]) AND period = $2 AND replaced_by IS NULL LIMIT 1",
                [PostgresTextArray(period.stagedKinds), period.label]).first == nil
        }
    }

    /// The file name (without extension) of a period's items file: `reconciliation_google_2026-11`; for Apple the
    /// calendar month and the fiscal label, `reconciliation_apple_2026-11_FY2027-P02` (never the bare reportDate,
    /// which reads as another month).
    public static func fileStem(_ period: ReconciliationPeriod) -> String {
        guard let fiscal = period.fiscalPeriod else { return "reconciliation_\(period.provider.rawValue)_\(period.label)" }
        return "reconciliation_apple_\(period.calendarMonth)_\(ReconciliationPeriod.fiscalArgument(fiscal))"
    }

    /// The periods to reconcile: the one asked for, or every provider's latest staged period.
    static func requestedPeriods(_ context: JobContext) throws -> [ReconciliationPeriod] {
        let values = context.arguments.values
        var providers = ReconciliationPeriod.Provider.allCases
        if let name = values["provider"] {
            guard let provider = ReconciliationPeriod.Provider(rawValue: name) else { throw JobError.usage("--provider must be apple or google") }
            providers = [provider]
        }
        if let text = values["fiscal-period"] {
            guard values["period"] == nil, values["provider"] ?? "apple" == "apple" else {
                throw JobError.usage("--fiscal-period names an Apple fiscal period: give it alone or with --provider apple, without --period")
            }
            guard let period = ReconciliationPeriod.appleFiscal(label: text) else {
                throw JobError.usage("--fiscal-period takes Apple's label FY<year>-P<01-12> (FY2027-P02 = fiscal November 2026), not '\(text)'")
            }
            return [period]
        }
        if let text = values["period"] {
            let (year, month) = try JobArguments.parseMonth(text, option: "--period")
            let label = String(year) + "-" + (month < 10 ? "0\(month)" : "\(month)")
            return try providers.map { provider in
                let period = provider == .apple ? ReconciliationPeriod.appleFiscal(forCalendarMonth: label) : ReconciliationPeriod(.google, label)
                guard let period else { throw JobError.usage("--period \(text) is not a month the \(provider.rawValue) calendar has") }
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
