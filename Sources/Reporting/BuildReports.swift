import Crypto
import Foundation
import JobKit
import Postgres
import XLSX

/// The `build-reports` job: runs every report of the catalogue (Reports/<name>.sql) in one read-only snapshot and
/// writes a CSV per report and one XLSX workbook (cover, a sheet per report with native charts) into the output
/// folder, each file under a temporary name first.
public enum BuildReports {
    /// The workbook's file name.
    public static let workbookName = "reports.xlsx"

    /// The job definition used by `Jobs/build-reports` (tests pass another `catalogue`).
    public static func definition(catalogue: [ReportDefinition] = ReportCatalogue.standard) -> JobDefinition {
        JobDefinition(
            name: "build-reports",
            summary: "write the finance reports (Reports/*.sql) as CSV files and one XLSX workbook with charts",
            options: ReportOptions.all
        ) { context in
            var folders: [String: String] = [:]
            for name in ["REPORT_OUT_DIR", "REPORT_SQL_DIR", ShareDirectory.environmentVariable] { folders[name] = context.environment.optional(name) }
            let settings = try ReportOptions.settings(context.arguments, asOf: context.asOf, environment: folders)
            try run(catalogue: catalogue, settings: settings, context: context)
        }
    }

    static func run(catalogue: [ReportDefinition], settings: ReportSettings, context: JobContext) throws {
        let log = context.logger
        var present: [(ReportDefinition, String)] = []
        var missing: [String] = []
        for definition in catalogue {
            let url = settings.sqlFolder.appendingPathComponent(definition.fileName)
            guard let sql = try? String(contentsOf: url, encoding: .utf8) else {
                if definition.required { missing.append(url.path) } else {
                    log.info("report \(definition.name): \(url.path) is absent; optional, skipped")
                    context.count("reports_skipped")
                }
                continue
            }
            present.append((definition, sql))
        }
        let fxURL = settings.sqlFolder.appendingPathComponent(ReportCatalogue.fxMissing + ".sql")
        let fxSQL = try? String(contentsOf: fxURL, encoding: .utf8)
        if fxSQL == nil { missing.append(fxURL.path) }
        guard missing.isEmpty, let fxSQL else { throw JobError.failed("required report SQL missing in \(settings.sqlFolder.path): "
                + "\(missing.joined(separator: ", ")); point --sql-dir or REPORT_SQL_DIR at the folder of the report SQL files") }
        context.note("period", "\(settings.firstMonth)..\(settings.lastMonth)")
        context.note("out", settings.outputFolder.path)
        // Checked before the queries run, so an unwritable folder fails at once, named.
        if !context.dryRun { try OutputFolder.requireWritable(settings.outputFolder, option: "--out (or REPORT_OUT_DIR)") }

        let database = context.database
        let spans = StoredSpans(settings: settings, database: database, connect: context.connect)
        // One snapshot for every report. It starts read-write only to fill the shared tables (temporary, dropped at
        // its end), then turns read-only before any report file runs. The files that read only the history run
        // meanwhile in a second session that imports this snapshot (`HistoryReports`).
        try database.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        var history: HistoryReports?
        var late: LateReports?
        var stored: StoredMonths?
        var storer: SpanStorer?
        // The movements the storer keeps for the next night (`StoredMovements`), given once they are filled.
        let movementsKept = StoredMovements.HandOff()
        do {
            try configureSnapshot(database)
            // The second session also computes the history part of the month digest (it reads none of the filled
            // tables), first, so it is ready when the fill ends.
            // A --full run needs the span digests only to store them: the second session computes them last, on its
            // snapshot, while this one writes its files (Reports/README.md, "The spans in the client").
            spans.digestsElsewhere = settings.recomputeAll && !context.dryRun
            history = try HistoryReports.start(context.dryRun ? [] : present.filter { HistoryReports.readsOnlyHistory($0.0, sql: $0.1) },
                                               monthHistory: !context.dryRun && present.contains { $0.0.reuse != nil },
                                               spanDigests: spans.digestsElsewhere,
                                               money: !context.dryRun && present.contains { $0.0.name == "kpis" },
                                               settings: settings, database: database, connect: context.connect)
            // The last files in print order get a session of their own too, ready when the fill ends (`LateReports`).
            late = try LateReports.start(context.dryRun ? [] : present, settings: settings, database: database, connect: context.connect)
            let filling = Date()
            let firstPlaced = try SharedReportTables.fill(settings: settings, database: database, spans: spans) {
                // The late session's trial_conversion starts now, beside the rest of the fill.
                try late?.handOverTrials(from: database, touched: spans.touched)
            }
            noteSeconds("shared_tables", since: filling, context: context)
            let digesting = Date()
            // The computed months are recorded and stored on a connection of their own (`MonthWriter`), beside this one.
            stored = try StoredMonths.prepare(present, settings: settings, fxSQL: fxSQL, database: database,
                                              connect: context.dryRun ? nil : context.connect,
                                              parts: try SnapshotParts.json(database)) { try history?.monthHistory() }
            noteSeconds("month_inputs", since: digesting, context: context)
            // The late session's files that read no movements start now, beside the movements' fill (a dry run has
            // no late session).
            try late?.handOverSnapshots(from: database, stored: stored)
            // A night's spans are stored on a connection of their own (`SpanStorer`), once the second session ends: its
            // tables are filled now, and that session ends while this one fills the movements, freeing a core
            // (Reports/README.md, "Storing only the spans that differ, beside the files").
            if !context.dryRun && spans.storesBeside {
                storer = try SpanStorer.start(spans.store, countsQuery: spans.countsQuery, from: database, connect: context.connect,
                                              after: { [history] in _ = try history?.wait() },
                                              beside: StoredMovements.keeping(movementsKept, basis: settings.basis.rawValue,
                                                                              after: SpanStore.beside(settings: settings, history: history, late: late)))
            }
            // The snapshots before the first placed one that the computed months read (a night placed only those after
            // its stored parts).
            let placing = Date()
            let placedFrom = try SharedReportTables.placeEarlier(settings: settings, from: stored?.checkedFrom ?? settings.firstMonth,
                                                                 firstPlaced: firstPlaced, database: database)
            context.setCount("snapshots_first_placed", placedFrom)
            noteSeconds("placing_earlier", since: placing, context: context)
            // The movements at the snapshots the computed months read: every one in a --full run, the last two in a
            // night that computes its last month.
            let moving = Date()
            let moved = try SharedReportTables.fillMovements(settings: settings, from: stored?.checkedFrom ?? settings.firstMonth,
                                                             spans: spans, database: database)
            noteSeconds("movements", since: moving, context: context)
            if let since = moved?.since { context.note("movements_since", since) }
            // (spilled once: the store keeps them, and the late session loads them from the file when they are all it reads)
            let kept = try StoredMovements.keep(moved, settings: settings, dryRun: context.dryRun, into: movementsKept, database: database)
            if let history, let seconds = history.monthHistorySeconds {
                context.note("seconds_month_history", String(format: "%.2f", seconds))
            }
            // kpis' money rows from the second session (waited for, if it is still filling refunds' parts).
            let waitingMoney = Date()
            let money = try history?.kpiMoney()
            if money != nil { noteSeconds("kpi_money_waited", since: waitingMoney, context: context) }
            try HistoryReports.fillKPIMoney(money, settings: settings, database: database)
            try database.execute("SET TRANSACTION READ ONLY")
            try checkFX(sql: fxSQL, settings: settings, stored: stored, context: context)
            if context.dryRun {
                for (definition, _) in present {
                    log.info("dry run: would write \(definition.name) (\(definition.sheet)) to \(settings.outputFolder.path)")
                }
                context.setCount("reports", present.count)
            } else {
                try late?.handOverMovements(from: database, file: moved?.alone == true ? kept?.file : nil)
                // The other sessions' files are waited for where the print order first needs one, so the job's files
                // before it are written meanwhile.
                try write(present, settings: settings, stored: stored,
                          computed: { name in
                              if let computed = try history?.result(name) { return computed }
                              guard let computed = try late?.result(name) else { return nil }
                              computed.tally.add(to: context)
                              return computed.computed
                          }, context: context)
                try late?.wait()
                for (name, seconds) in late?.factsSeconds ?? [] { context.note("seconds_\(name)s", String(format: "%.2f", seconds)) }
                if let history {
                    _ = try history.wait()
                    context.note("seconds_history_session_waited", String(format: "%.2f", history.waited ?? 0))
                    context.note("seconds_history_session", String(format: "%.2f", history.seconds))
                    for (name, seconds) in history.factsSeconds { context.note("seconds_\(name)s", String(format: "%.2f", seconds)) }
                    if let seconds = history.paidCountsSeconds { context.note("seconds_paid_counts", String(format: "%.2f", seconds)) }
                    if let seconds = history.priceChangeFactsSeconds {
                        context.note("seconds_price_change_facts", String(format: "%.2f", seconds))
                    }
                }
            }
            try database.execute("COMMIT")
            if spans.digestsElsewhere {
                guard let rows = try history?.spanDigests() else { throw JobError.failed("report span digests: the second session computed none") }
                try spans.loadDigests(rows)
            }
            if storer == nil {
                let (recomputed, reused) = try spans.counts()
                context.setCount("spans_recomputed", recomputed)
                context.setCount("spans_reused", reused)
            }
        } catch {
            _ = try? database.execute("ROLLBACK")
            // The second session ends on its own (its snapshot imported, or failing to import it); waited for, so no
            // query of this run outlives it. Its own error, if any, is this one's consequence.
            _ = try? history?.wait()
            // Before the month writer ends: the late session may still be sending it rows.
            late?.stop()
            movementsKept.give(nil)
            storer?.end(keep: false)
            _ = try? storer?.wait()
            stored?.writer?.end(keep: false)
            _ = try? stored?.writer?.wait()
            throw error
        }
        let storing = Date()
        // The months are stored on their own connection while this one stores the spans.
        stored?.writer?.end(keep: !context.dryRun)
        do {
            if let storer {
                storer.end(keep: true)
                let (recomputed, reused) = try storer.wait()
                context.setCount("spans_recomputed", recomputed)
                context.setCount("spans_reused", reused)
                context.note("seconds_storing_spans_beside", String(format: "%.2f", storer.seconds))
                try spans.dropTables()
            } else {
                try spans.save(keep: !context.dryRun, beside: StoredMovements.keeping(movementsKept, basis: settings.basis.rawValue,
                                                                                       after: SpanStore.beside(settings: settings, history: history, late: late)))
            }
        } catch {
            _ = try? stored?.writer?.wait()
            throw error
        }
        if let writer = stored?.writer {
            try writer.wait()
            context.note("seconds_storing_months_rows", String(format: "%.2f", writer.storingSeconds))
        } else {
            try StoredMonths.save(database, keep: !context.dryRun)
        }
        noteSeconds("storing_months", since: storing, context: context)
    }

    /// Sets the run's planner settings in `database`'s open transaction (the job's session and the second one alike).
    static func configureSnapshot(_ database: PostgresConnection) throws {
        // The reports' CTE row estimates are far too high, so PostgreSQL would JIT-compile every report (8-15 s of
        // LLVM time each, even on a 20-subscription world, for no gain): off for this transaction.
        try database.execute("SET LOCAL jit = off")
        // Reports without charts are read through a cursor; plan them for all their rows, as a plain query is (the
        // default, 0.1, picks fast-start plans that made mrr_movements several times slower).
        try database.execute("SET LOCAL cursor_tuple_fraction = 1.0")
        // The contributions are one sort of the history and the reports group them into a few thousand cells, but
        // PostgreSQL estimates hundreds of thousands of groups: with the default 32 MB it sorts (4 s for mrr at
        // 200k subscriptions) where a hash table takes 0.7 s, and the contribution sort spills to disk
        // (Reports/README.md, "Cost"). One report runs at a time per session (two sessions at most), so this bounds
        // the backends to a few of these.
        try database.execute("SET LOCAL work_mem = '256MB'")
    }

    /// Notes the seconds since `started` as `seconds_<name>` (two decimals) in the job's summary and returns them, so a
    /// slow report shows in the log and the JSON notes; they are timings, not outputs (the files stay byte-identical).
    @discardableResult
    static func noteSeconds(_ name: String, since started: Date, context: JobContext) -> String {
        let seconds = String(format: "%.2f", max(0, Date().timeIntervalSince(started)))
        context.note("seconds_" + name, seconds)
        return seconds
    }

    /// Runs `sql`, the text of `fx_missing.sql` (required, like the reports); any (month, currency) it returns fails
    /// the run, naming each. Only the months the run computes are checked (`StoredMonths.checkedFrom`: the months every
    /// storing report reuses were checked by the run that stored them; Reports/README.md, "FX").
    static func checkFX(sql: String, settings: ReportSettings, stored: StoredMonths? = nil, context: JobContext) throws {
        let from = stored?.checkedFrom ?? settings.firstMonth
        let moved = from > settings.firstMonth
        if moved {
            context.note("fx_checked", "\(from)..\(settings.lastMonth)")
            try stored?.markReported(from: from)
        }
        let table = try ReportQuery.run(ReportCatalogue.fxMissing, sql: sql, settings: settings,
                                        database: context.database)
        if moved { try stored?.markReported(from: settings.firstMonth) }
        guard !table.rows.isEmpty else { return }
        let month = table.index(of: "month") ?? 0, currency = table.index(of: "currency") ?? min(1, table.columns.count - 1)
        let pairs = table.rows.map { "\($0[month] ?? "?") \($0[currency] ?? "?")" }
        context.setCount("fx_missing", pairs.count)
        throw JobError.failed("no FX rate to \(settings.currency) for \(pairs.count) month/currency pair(s): \(pairs.joined(separator: ", "))"
            + "; import them with `import-exports --fx <rates.csv>` (date,currency,rate: USD per 1 unit), or import the month's"
            + " Apple payments summary / Google earnings report, which carry their rates")
    }

    /// Writes every report; those `computed` returns rows for (the second session's, `HistoryReports`) from their rows,
    /// the others from their SQL in the job's session.
    static func write(_ present: [(ReportDefinition, String)], settings: ReportSettings, stored: StoredMonths?,
                      computed: (String) throws -> HistoryReports.Computed? = { _ in nil }, context: JobContext) throws {
        let files = try StagedFiles(folder: settings.outputFolder)
        do {
            var book: ReportWorkbook?
            if settings.writeXLSX {
                let path = files.stage(workbookName).path
                book = try ReportWorkbook(path: path, created: Int64(settings.asOf.timeIntervalSince1970.rounded(.down)),
                                          title: "Subscription finance reports as of \(PostgresTimestamp.iso8601(settings.asOf))",
                                          temporaryDirectory: settings.outputFolder.path,
                                          withCharts: present.contains { !$0.0.charts.isEmpty })
            }
            var results: [ReportResult] = []
            var drawn: [(ReportDefinition, ReportTable, ReportFormatter, Worksheet?)] = []
            for (definition, sql) in ReportCatalogue.printOrder(present, name: { $0.0.name }) {
                // A report of the second session counts its query's seconds there too.
                var started = Date()
                let csv = settings.writeCSV ? try CSVFileWriter(url: files.stage(definition.name + ".csv")) : nil
                var sheet: Worksheet?
                var formatter: ReportFormatter?
                var kept = ReportTable(columns: [], rows: [])
                var count = 0
                // A report with charts or cover headline numbers is kept whole (they read it); any other one is streamed
                // through a cursor.
                let consume = { (columns: [String], rows: [[String?]]) throws in
                    if formatter == nil {
                        let made = ReportFormatter(report: definition.name, columns: columns, rawIdentifiers: settings.rawIdentifiers)
                        formatter = made
                        kept.columns = columns
                        try csv?.append(made.columns.map(\.name))
                        if !definition.detail || settings.detailSheets, definition.name != CohortTriangle.report {
                            sheet = try book?.addReportSheet(definition.sheet, columns: made.columns)
                        }
                    }
                    guard let formatter else { return }
                    for row in rows {
                        count += 1
                        let cells = try formatter.format(row, rowNumber: count)
                        try csv?.append(cells.map(\.csv))
                        if let sheet, count <= ReportWorkbook.maxDataRows { try sheet.writeRow(cells.map(\.cell), row: count) }
                    }
                }
                let whole = !definition.charts.isEmpty || CoverHeadline.reports.contains(definition.name)
                    || definition.name == CohortTriangle.report || MonthEndPack.reports.contains(definition.name)
                    || (settings.writeHTML && HTMLReport.tables.contains { $0.report == definition.name })
                if let done = try computed(definition.name) {
                    // (from now: a wait for the second session is not the report's)
                    started = Date().addingTimeInterval(-done.seconds)
                    context.count("rows_reused", by: 0)
                    try consume(done.table.columns, done.table.rows)
                    if whole { kept = done.table }
                } else {
                    let tally = ReportTally()
                    defer { tally.add(to: context) }
                    // A streamed report whose file is its CSV alone (no sheet) takes its reused months' stored lines as
                    // they are.
                    var lines: ((UnsafeRawBufferPointer, Int) throws -> Void)?
                    if let csv, !whole, book == nil || (definition.detail && !settings.detailSheets) {
                        lines = { bytes, rows in
                            try csv.appendEncoded(bytes)
                            count += rows
                        }
                    }
                    if let table = try ReportRows.read(definition, sql: sql, settings: settings, stored: stored, database: context.database,
                                                       tally: tally, whole: whole, lines: lines, consume) {
                        kept = table
                    }
                }
                if definition.name == CohortTriangle.report, let book, let formatter {
                    sheet = try book.addTriangleSheet(definition.sheet, triangle: try CohortTriangle(table: kept, formatter: formatter))
                }
                // Without CSV output the cover still hashes the header line, as it always has.
                var header = CSVEncoder()
                header.append(formatter?.columns.map(\.name) ?? [])
                let csvSHA256 = try csv?.finish() ?? SHA256Digest.hex(header.bytes)
                let leftOut = settings.writeXLSX && definition.detail && !settings.detailSheets
                results.append(ReportResult(definition: definition, rows: count, sqlSHA256: SHA256Digest.hex(Array(sql.utf8)),
                                            csvSHA256: csvSHA256, truncatedInSheet: sheet != nil && count > ReportWorkbook.maxDataRows,
                                            notes: leftOut ? ["no sheet: a detail report, every row is in \(definition.name).csv "
                                                + "(--detail-sheets gives it a sheet)"] : []))
                context.setCount("rows_" + definition.name, count)
                context.count("reports")
                let seconds = noteSeconds(definition.name, since: started, context: context)
                context.logger.info("report \(definition.name): \(count) rows in \(seconds) s")
                if let formatter, sheet != nil || settings.writeHTML { drawn.append((definition, kept, formatter, sheet)) }
            }
            var charts: [(sheet: String, block: ChartBlock)] = []
            for (definition, table, formatter, sheet) in drawn {
                for chart in definition.charts {
                    let partial = settings.lastMonth == settings.asOfMonth ? settings.asOfMonth.description : nil
                    switch try ChartBlock.make(chart, table: table, formatter: formatter, reportingCurrency: settings.currency,
                                               partialMonth: partial) {
                    case .success(let block):
                        charts.append((definition.sheet, block))
                        if let book, let sheet { try book.drawChart(block, report: definition.name, sheet: sheet.name) }
                        context.count("charts")
                        if let note = block.note, let at = results.firstIndex(where: { $0.definition.name == definition.name }) {
                            results[at].notes.append("chart '\(chart.title)': \(note)")
                        }
                    case .failure(let skipped):
                        if let at = results.firstIndex(where: { $0.definition.name == definition.name }) {
                            results[at].notes.append("chart '\(chart.title)' not drawn: \(skipped.reason)")
                        }
                        context.logger.info("report \(definition.name): chart '\(chart.title)' not drawn: \(skipped.reason)")
                        context.count("charts_skipped")
                    }
                }
            }
            let kept = { (name: String) in drawn.first { $0.0.name == name }?.1 }
            let headline = try CoverHeadline.rows(month: settings.lastMonth, partial: settings.lastMonth == settings.asOfMonth,
                                                  currency: settings.currency, bridge: kept("mrr_bridge"), refunds: kept("refunds"))
            let packMonth = MonthEndPack.month(last: settings.lastMonth, partial: settings.lastMonth == settings.asOfMonth)
            let pack = try MonthEndPack.lines(month: packMonth, currency: settings.currency, kpis: kept("kpis"),
                                              trials: kept("trial_conversion"), reconciliation: kept("reconciliation"))
                .map { MonthEndPack.Block(month: packMonth, currency: settings.currency, lines: $0) }
            if let book {
                try book.writeCover(title: "Subscription finance reports", pack: pack,
                                    rows: try ReportCover.rows(settings: settings, results: results, headline: headline))
                try book.close()
            }
            if settings.writeHTML {
                let tables = HTMLReport.tables.compactMap { shown in
                    drawn.first { $0.0.name == shown.report }.map { HTMLReport.Table(definition: $0.0, formatter: $0.2, table: $0.1) }
                }
                let page = HTMLReport(title: "Subscription finance reports",
                                      subtitle: "As of \(PostgresTimestamp.iso8601(settings.asOf)) · basis \(settings.basis.rawValue) · "
                                        + "\(settings.periodText) · reporting currency \(settings.currency)",
                                      pack: pack, headline: headline, charts: charts, tables: tables,
                                      run: try ReportCover.rows(settings: settings, results: results))
                try files.write(Array(try page.render().utf8), as: HTMLReport.fileName)
            }
            try files.commit()
        } catch {
            files.discard()
            throw error
        }
        if settings.writeXLSX { context.note("workbook", settings.outputFolder.appendingPathComponent(workbookName).path) }
        if settings.writeHTML { context.note("html", settings.outputFolder.appendingPathComponent(HTMLReport.fileName).path) }
    }
}
