import Foundation
import JobKit
import StoreExports

/// The `import-exports` job: stages the stores' report files found under `--reports-dir` (or `REPORTS_DIR`) and
/// imports exchange rates from `--fx`. Each file is one transaction; a rejected file imports nothing and makes the
/// job exit 1 naming it, while the other files still import. Given folders that do not exist, are empty or hold no
/// importable file, the job exits 3 saying what it found; files of kinds it does not import lying beside importable
/// ones are listed (warning and the `files_ignored` note) and do not change the exit code.
public enum ImportExports {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("reports-dir", placeholder: "paths",
               help: "report files or folders (searched recursively), comma-separated (default: $REPORTS_DIR; none: skipped)"),
        .value("fx", placeholder: "file.csv", help: "exchange rates to import: date,currency,rate (USD per 1 unit)"),
        .flag("download", help: "first download the --period's reports from App Store Connect and the Play report bucket into the first --reports-dir folder"),
        .value("period", placeholder: "YYYY-MM", help: "the month --download fetches (Apple: the fiscal period named after it)"),
        .flag("allow-shrink", help: "accept a corrected file with fewer rows than the one it replaces (audited with both counts)"),
    ]

    /// The job definition; `downloads` builds the report download clients (tests point them at the simulator).
    public static func definition(downloads: @escaping ReportDownloadSources.Factory = ReportDownloadSources.fromEnvironment) -> JobDefinition {
        JobDefinition(name: "import-exports", summary: "stage the stores' financial and sales report files and exchange rates",
                      options: options) { context in
            try run(context, downloads: downloads)
        }
    }

    /// The counter name of a kind (`apple_financial`, …).
    public static func label(_ kind: StoreReportKind) -> String {
        switch kind {
        case .appleFinancial: return "apple_financial"
        case .applePayments: return "apple_payments"
        case .appleSubscriber: return "apple_subscriber"
        case .appleSubscription: return "apple_subscription"
        case .appleSubscriptionEvent: return "apple_subscription_event"
        case .appleSummarySales: return "apple_sales_summary"
        case .googleEarnings: return "google_earnings"
        case .googleEstimatedSales: return "google_estimated_sales"
        }
    }

    static func run(_ context: JobContext, downloads: ReportDownloadSources.Factory) throws {
        let given = context.arguments.values["reports-dir"] ?? context.environment.optional("REPORTS_DIR")
        let paths = (given ?? "").split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
        if context.arguments.flags.contains("download") { try download(context, into: paths.first, downloads: downloads) }
        let fxFile = context.arguments.values["fx"]
        var rejected: [String] = []
        if let fxFile { rejected += try importFX(fxFile, context) }
        guard !paths.isEmpty else {
            if fxFile == nil { context.note("skipped", "no report files: give --reports-dir or set REPORTS_DIR") }
            if !rejected.isEmpty { throw JobError.failed("rejected: " + rejected.joined(separator: "; ")) }
            return
        }
        let found: FoundFiles
        do {
            found = try ReportFileFinder.find(paths)
        } catch let failure as ReportImportFailure {
            if case .missingPath = failure { throw JobError.nothingDone("\(failure) (--reports-dir / REPORTS_DIR)") }
            throw JobError.failed("\(failure)")
        }
        for file in found.unimportable { context.logger.warning("not imported: \(file.kind)", ["file": file.path]) }
        for path in found.loopsSkipped { context.logger.warning("folder already searched (symbolic link loop), skipped", ["folder": path]) }
        context.setCount("files_ignored", found.unimportable.count)
        if !found.unimportable.isEmpty { context.note("files_ignored", found.unimportable.map(\.listing).joined(separator: ", ")) }
        guard !found.reports.isEmpty else {
            throw JobError.nothingDone("no importable report file under \(paths.joined(separator: ", ")): found \(found.summary)")
        }
        let files = context.limit.map { Array(found.reports.prefix($0)) } ?? found.reports
        let loader = ReportLoader(database: context.database, actor: context.jobName,
                                  allowShrink: context.arguments.flags.contains("allow-shrink"))
        let started = Date()
        var rowsLoaded = 0
        let progress = context.progress("importing report files", unit: "files", total: files.count)
        defer { progress.finish() }
        var stagedGoogleEarnings = false
        defer { if stagedGoogleEarnings { analyzeGoogleEarningsFacts(context) } }
        for file in files {
            let kind = label(file.kind)
            defer { progress.advance() }
            do {
                let outcome: ReportLoadOutcome
                let fxCount: Int
                if file.kind == .googleEarnings, !context.dryRun {
                    // Staged while it is read; a first look at the bytes' hash spares an unchanged file the staging
                    // (and a new one the staging's own read to hash them).
                    (outcome, fxCount) = try loader.loadGoogleEarnings(file.path, kept: KeptReportFile.firstLook(file.path))
                } else if ReportLoader.stagesWhileReading(file.kind), !context.dryRun {
                    outcome = try loader.loadStreamed(file.path, kind: file.kind, knownSHA256: ReportStream.sha256(file.path))
                    fxCount = 0
                } else {
                    let report = try ReportReader.read(file)
                    let fx = fxRates(of: report)
                    outcome = context.dryRun ? try loader.classify(report) : try loader.load(report, fxRates: fx)
                    fxCount = fx.count
                }
                if file.kind == .googleEarnings, !context.dryRun, outcome != .unchanged { stagedGoogleEarnings = true }
                switch outcome {
                case .imported(let rows):
                    context.count("\(kind)_imported"); context.count("files_imported")
                    context.count("\(kind)_rows", by: rows); rowsLoaded += rows
                case .unchanged:
                    context.count("\(kind)_unchanged"); context.count("files_unchanged")
                case .replaced(let rows, _):
                    context.count("\(kind)_replaced"); context.count("files_replaced")
                    context.count("\(kind)_rows", by: rows); rowsLoaded += rows
                }
                if fxCount > 0, outcome != .unchanged {
                    context.count(file.kind == .googleEarnings ? "fx_rates_from_earnings" : "fx_rates_from_payments", by: fxCount)
                }
            } catch let refusal as ClosedPeriodCorrection {
                context.count("\(kind)_rejected"); context.count("files_rejected"); context.count("files_closed_period")
                context.logger.error("rejected: \(refusal)", ["file": file.path])
                rejected.append(refusal.description)
            } catch let refusal as ShrinkingReplacement {
                context.count("\(kind)_rejected"); context.count("files_rejected"); context.count("files_shrinking")
                context.logger.error("rejected: \(refusal)", ["file": file.path])
                rejected.append(refusal.description)
            } catch let error as StoreReportError {
                context.count("\(kind)_rejected"); context.count("files_rejected")
                context.logger.error("rejected: \(error)", ["file": file.path])
                rejected.append(error.description)
            } catch {
                context.count("\(kind)_rejected"); context.count("files_rejected")
                let message = "\(URL(fileURLWithPath: file.path).lastPathComponent): not imported: \(error)"
                context.logger.error("rejected: \(message)", ["file": file.path])
                rejected.append(message)
            }
        }
        context.setCount("rows_loaded", rowsLoaded)
        let seconds = Date().timeIntervalSince(started)
        if seconds > 0, rowsLoaded > 0 { context.note("rows_per_second", String(Int(Double(rowsLoaded) / seconds))) }
        if !rejected.isEmpty { throw JobError.failed("rejected \(rejected.count) file(s): " + rejected.joined(separator: "; ")) }
    }

    /// Brings the planner's statistics of the staged Google earnings facts up to date (migration 0045), so the
    /// reconcile that follows the import plans the new file's facts by their real count (one serial sort spilling to
    /// disk, not a parallel one, while autovacuum had not yet analysed them). The files are staged and committed
    /// already: a failure here is logged and counted (`facts_statistics_failed`), not the import's.
    static func analyzeGoogleEarningsFacts(_ context: JobContext) {
        do {
            _ = try context.database.query("SELECT google_earnings_fact_analyze()")
        } catch {
            context.count("facts_statistics_failed")
            context.logger.warning("the staged Google earnings facts were not analysed: \(error)")
        }
    }

    /// Downloads `--period` into `folder` before the import.
    static func download(_ context: JobContext, into folder: String?, downloads: ReportDownloadSources.Factory) throws {
        guard let period = context.arguments.values["period"] else { throw JobError.usage("--download needs --period YYYY-MM") }
        _ = try JobArguments.parseMonth(period, option: "--period")
        guard let folder else { throw JobError.usage("--download needs --reports-dir (or REPORTS_DIR): the folder the files land in") }
        let sources = try downloads(context.environment, context.database.configuration)
        if sources.apple == nil || sources.appleVendorNumber == nil { context.note("apple_download", "skipped: no Apple settings or APPLE_VENDOR_NUMBER") }
        if sources.google == nil { context.note("google_download", "skipped: no Google settings or GOOGLE_REPORT_BUCKET") }
        let tally = try ReportDownloader(sources: sources, folder: URL(fileURLWithPath: folder)).download(period: period)
        context.setCount("apple_files_downloaded", tally.appleFiles)
        context.setCount("apple_reports_empty", tally.appleEmpty)
        context.setCount("google_files_downloaded", tally.googleFiles)
    }

    static func fxRates(of report: ParsedReport) -> [FXRateRow] {
        switch report.content {
        case .applePayments(let summary): return FXRateSources.applePayments(summary)
        case .googleEarnings(let tally): return tally.rates.rates(month: report.identity.period)
        default: return []
        }
    }

    /// Imports the rates CSV in one transaction; returns the rejection message, if any.
    static func importFX(_ path: String, _ context: JobContext) throws -> [String] {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { throw JobError.usage("cannot read --fx \(path)") }
        do {
            let rows = try FXRateSources.csv([UInt8](data), file: name)
            context.setCount("fx_rows_read", rows.count)
            guard !context.dryRun else { return [] }
            let tally = try context.database.transaction { db in
                try FXRateWriter(database: db, actor: context.jobName).upsert(rows)
            }
            context.setCount("fx_inserted", tally.inserted)
            context.setCount("fx_unchanged", tally.unchanged)
            context.setCount("fx_replaced", tally.replaced)
            context.setCount("fx_other_source", tally.otherSource)
            return []
        } catch let error as StoreReportError {
            context.count("files_rejected")
            context.logger.error("rejected: \(error)", ["file": path])
            return [error.description]
        }
    }
}
