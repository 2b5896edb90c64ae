import Crypto
import Foundation
import JobKit
import Postgres
import StoreExports

/// The `close-period` job: month-end close of a calendar month. Reconciles Google's month and Apple's fiscal
/// period named after that month as known now, snapshots the reconciliation CSVs and the report files under the
/// reports folder (`--reports`, else the newest `YYYY-MM-DD` build under `REPORT_OUT_DIR`, else `Reports/out`) with their SHA-256, and
/// locks billing_transaction rows effective in those periods. It refuses (exit 2) a month that has not ended, one
/// whose store reports are not imported (unless `--without-store-reports`) and an empty reports folder.
/// `--reopen --reason` lifts the lock, recorded in audit_log.
public enum ClosePeriod {
    /// The job's own options.
    public static let options: [JobOption] = [
        .value("period", placeholder: "YYYY-MM", help: "the calendar month to close (default: the month before --as-of)"),
        .flag("reopen", help: "reopen the closed month instead (needs --reason)"),
        .value("reason", placeholder: "text", help: "why the month is reopened (recorded in audit_log)"),
        .value("reports", placeholder: "folder", help: "report files to snapshot (default: the newest YYYY-MM-DD build folder under $REPORT_OUT_DIR, else Reports/out)"),
        .flag("without-store-reports", help: "close although the month's store reports are not imported (the reconciliation then has no store side)"),
    ]

    /// The job definition.
    public static func definition() -> JobDefinition {
        JobDefinition(name: "close-period", summary: "close a month: snapshot its reconciliation and lock its transactions",
                      options: options) { context in
            try run(context)
        }
    }

    /// The report periods a calendar month closes.
    public static func periods(ofMonth month: String) -> [ReconciliationPeriod] {
        [ReconciliationPeriod(.google, month), ReconciliationPeriod.appleFiscal(forCalendarMonth: month)].compactMap { $0 }
    }

    static func run(_ context: JobContext) throws {
        let month: String
        if let text = context.arguments.values["period"] {
            let (year, number) = try JobArguments.parseMonth(text, option: "--period")
            month = String(year) + "-" + (number < 10 ? "0\(number)" : "\(number)")
        } else {
            month = previousMonth(before: context.asOf)
        }
        guard periods(ofMonth: month).count == 2 else { throw JobError.usage("--period must be YYYY-MM") }
        if context.arguments.flags.contains("reopen") {
            guard let reason = context.arguments.values["reason"], !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw JobError.usage("--reopen needs --reason")
            }
            try reopen(month, reason: reason, context)
            return
        }
        let open = try context.database.query("SELECT id FROM period_close WHERE period = $1 AND reopened_at IS NULL", [month])
        guard open.count == 0 else {
            context.note("skipped", "\(month) is already closed")
            return
        }
        try refuseUnfinished(month, context)
        let reports = context.arguments.values["reports"].map { URL(fileURLWithPath: $0) }
            ?? newestBuild(under: URL(fileURLWithPath: context.environment.optional("REPORT_OUT_DIR") ?? "Reports/out"))
        let reportFiles = try snapshotFiles(under: reports)
        guard !reportFiles.isEmpty else {
            throw JobError.usage("""
                no report files to snapshot under \(reports.path) (--reports, else $REPORT_OUT_DIR, else Reports/out): \
                run build-reports for \(month) first, or point --reports at the folder it wrote
                """)
        }
        context.setCount("report_files_hashed", reportFiles.count)
        guard !context.dryRun else { return }
        try context.database.transaction { db in
            // The close instant is read under a SHARE lock on the history: writers in flight commit first (their
            // rows, recorded before the instant, are in the snapshot) and later ones wait for the close, so every
            // row recorded after the instant is one the snapshot did not see (a prior-period adjustment).
            _ = try db.execute("LOCK TABLE billing_transaction IN SHARE MODE")
            let closedAt = try db.clockTimestamp() ?? context.asOf
            let closeID = try db.query(
                "INSERT INTO period_close (period, closed_at, closed_by) VALUES ($1, $2, $3) RETURNING id",
                [month, closedAt, context.jobName]).first.map { try $0.decode(Int64.self, "id") } ?? 0
            var snapshot = reportFiles.map { ("reports/" + $0.name, $0.bytes) }
            for period in periods(ofMonth: month) {
                let result = try Reconciler(database: db).reconcile(period, knownAt: closedAt)
                let items = ReconciliationCSV.items(result.items)
                let runID = try ReconciliationStore(database: db, actor: context.jobName)
                    .saveInOpenTransaction(result, sha256: SHA256Digest.hex(items), jobRunID: context.runID)
                _ = try db.execute("""
                    INSERT INTO period_lock (close_id, provider, report_period, starts_at, ends_at, run_id)
                    VALUES ($1, $2::billing_provider, $3, to_timestamp($4), to_timestamp($5), $6)
                    """, [closeID, period.provider.databaseLabel, period.label, period.start, period.end, runID])
                let stem = Reconcile.fileStem(period)
                snapshot.append((stem + ".csv", items))
                snapshot.append((stem + "_totals.csv", ReconciliationCSV.totals(ReconciliationTotals(result.items))))
                context.count("\(period.provider.rawValue)_items", by: result.items.count)
                context.note("\(period.provider.rawValue)_period", period.readableName)
            }
            for (name, bytes) in snapshot {
                _ = try db.execute("""
                    INSERT INTO period_snapshot (close_id, name, content_sha256, byte_count, content) VALUES ($1, $2, $3, $4, $5)
                    """, [closeID, name, SHA256Digest.hex(bytes), Int64(bytes.count), Data(bytes)])
            }
            _ = try db.execute("""
                INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                VALUES ($1, 'close', 'period_close', $2, jsonb_build_object('period', $3::text, 'snapshots', $4::int8))
                """, [context.jobName, String(closeID), month, Int64(snapshot.count)])
            context.setCount("snapshots", snapshot.count)
            context.note("close_id", String(closeID))
        }
    }

    /// Refuses (exit 2) a month whose report periods have not all ended as of the run, and, unless
    /// `--without-store-reports`, one whose store reports are not imported.
    static func refuseUnfinished(_ month: String, _ context: JobContext) throws {
        let asOf = Int64(context.asOf.timeIntervalSince1970.rounded(.down))
        let open = periods(ofMonth: month).filter { $0.end > asOf }
        if !open.isEmpty {
            let ends = open.map { "\($0.provider.rawValue) \($0.readableName) ends \(PostgresTimestamp.iso8601($0.endDate))" }
            throw JobError.usage("\(month) has not ended as of \(PostgresTimestamp.iso8601(context.asOf)): " + ends.joined(separator: "; "))
        }
        guard !context.arguments.flags.contains("without-store-reports") else { return }
        let missing = try Reconcile.unstaged(periods(ofMonth: month), context)
        if !missing.isEmpty {
            throw JobError.usage("\(month) cannot be closed: its store reports are not imported: "
                + missing.map { "\($0.provider.rawValue): \($0.stagedKindsDescription)" }.joined(separator: "; ")
                + " (import-exports --reports-dir first, or --without-store-reports to close without them)")
        }
    }

    static func reopen(_ month: String, reason: String, _ context: JobContext) throws {
        guard !context.dryRun else { return }
        let reopened = try context.database.transaction { db -> Int64? in
            guard let row = try db.query("""
                UPDATE period_close SET reopened_at = clock_timestamp(), reopen_reason = $2
                WHERE period = $1 AND reopened_at IS NULL RETURNING id
                """, [month, reason]).first else { return nil }
            let id = try row.decode(Int64.self, "id")
            _ = try db.execute("""
                INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                VALUES ($1, 'reopen', 'period_close', $2, jsonb_build_object('period', $3::text, 'reason', $4::text))
                """, [context.jobName, String(id), month, reason])
            return id
        }
        guard let reopened else { throw JobError.usage("\(month) is not closed") }
        context.count("reopened")
        context.note("close_id", String(reopened))
    }

    /// The calendar month (UTC) before the one holding `date`, as YYYY-MM.
    static func previousMonth(before date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month], from: date)
        let (year, month) = (parts.year ?? 1970, parts.month ?? 1)
        return month == 1 ? String(format: "%04d-12", year - 1) : String(format: "%04d-%02d", year, month - 1)
    }

    /// The build a close snapshots when `--reports` is not given: build-reports writes each run into a `YYYY-MM-DD`
    /// folder (its as-of date) under the reports root, so the newest such folder; the root itself when it holds none.
    static func newestBuild(under root: URL) -> URL {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let dated = names.filter { name in
            var isDirectory: ObjCBool = false
            let parts = name.split(separator: "-").compactMap { Int($0) }
            return name.count == 10 && parts.count == 3 && CalendarDate(year: parts[0], month: parts[1], day: parts[2]) != nil
                && FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        return dated.max().map { root.appendingPathComponent($0, isDirectory: true) } ?? root
    }

    /// Every regular file under `folder` (recursively, by relative path in order); none when it does not exist.
    static func snapshotFiles(under folder: URL) throws -> [(name: String, bytes: [UInt8])] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
        let base = folder.standardizedFileURL.path
        var result: [(name: String, bytes: [UInt8])] = []
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) ?? .init() {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            let name = path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : url.lastPathComponent
            result.append((name, [UInt8](try Data(contentsOf: url))))
        }
        return result.sorted { $0.name < $1.name }
    }
}
