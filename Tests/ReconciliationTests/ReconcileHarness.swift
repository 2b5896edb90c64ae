import Foundation
import JobKit
import Postgres
import Reconciliation
import ReportImport
import StoreExports
import TestSupport
import Testing
import WorldGen

/// A generated world in a private database set up as an installation is (roles.sql, migrations as `iap_owner`): its
/// files under a scratch folder, staged by `import-exports`, and `reconcile` / `close-period` run as jobs connected
/// as `iap_job`. `database` is the superuser's connection (fixtures and assertions).
final class ReconcileHarness {
    let databaseName: String
    let roles: RoleDatabase
    let database: PostgresConnection
    let folder: URL
    let discrepancies: [ReportDiscrepancy]

    init(_ name: String, seed: UInt64, subscriptions: Int = 400, months: Int = 3, share: Double = 0.02) throws {
        databaseName = "reconcile_" + name
        roles = try RoleDatabase.fresh(databaseName)
        database = try PostgresConnection(configuration: roles.superuser)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let world = try World.generate(WorldOptions(seed: seed, subscriptions: subscriptions, months: months))
        let reports = try WorldWriter.writeFiles(world, to: folder, reportShares: .all(share))
        try WorldWriter.load(world, into: database)
        if let reports { try StoreReports.applyToDatabase(reports, database: database) }
        discrepancies = reports?.discrepancies ?? []
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: folder)
    }

    var out: URL { folder.appendingPathComponent("out") }

    /// Puts one report file under `out`, as build-reports would (close-period refuses an empty reports folder).
    func writeReportFile() throws {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("month,mrr\n".utf8).write(to: out.appendingPathComponent("mrr.csv"))
    }

    /// Runs a job as `iap_job`: exit code and the summary's counts.
    @discardableResult
    func run(_ definition: JobDefinition, _ arguments: [String]) throws -> (JobExitCode, [String: Int], String) {
        var variables = roles.environment(as: RoleDatabase.job)
        variables["REPORTS_DIR"] = nil
        let box = SummaryBox()
        let code = JobRunner.run(definition, arguments: ["--log-format", "json"] + arguments, environment: JobEnvironment(variables),
                                 output: { box.append($0) })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(box.text.utf8)) as? [String: Any])
        return (code, (json["counts"] as? [String: Int]) ?? [:], box.text)
    }

    /// Stages the world's report files.
    func importReports() throws {
        try adaptAppleFinancialFiles()
        try run(ImportExports.definition(), ["--reports-dir", folder.appendingPathComponent("reports").path])
    }

    /// Until the world writes real-shaped Apple financial files, renames `FINANCIAL_<region>_<reportDate>.txt` to the
    /// real `<vendor>_<MMYY>_<region>.txt` and rewrites its `Total_Units` as the real files count it (sale units only).
    /// Files already named the real way are left alone, so this does nothing once the world writes them itself.
    func adaptAppleFinancialFiles() throws {
        let finance = folder.appendingPathComponent("reports/apple/finance")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: finance.path) else { return }
        for name in names where name.hasPrefix("FINANCIAL_") && name.hasSuffix(".txt") {
            let parts = name.dropLast(4).split(separator: "_")
            guard parts.count == 3, let period = FiscalPeriod(reportDate: String(parts[2])) else { continue }
            let source = finance.appendingPathComponent(name)
            var lines = try String(contentsOf: source, encoding: .utf8).components(separatedBy: "\n")
            var saleUnits: Int64 = 0
            for line in lines.dropFirst() {
                if line.isEmpty || line.hasPrefix("Total_") { break }
                let cells = line.components(separatedBy: "\t")
                if cells.count > 5, let quantity = Int64(cells[5]), quantity > 0 { saleUnits += quantity }
            }
            if let index = lines.firstIndex(where: { $0.hasPrefix("Total_Units\t") }) { lines[index] = "Total_Units\t\(saleUnits)" }
            let target = finance.appendingPathComponent("85012345_\(period.fileMMYY)_\(parts[1]).txt")
            try lines.joined(separator: "\n").write(to: target, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: source)
        }
    }

    /// The periods of `provider` that hold database rows or staged files, in order.
    func periods(_ provider: ReconciliationPeriod.Provider) throws -> [ReconciliationPeriod] {
        let bounds = try #require(try database.query("""
            SELECT extract(epoch FROM min(effective_at))::int8 AS a, extract(epoch FROM max(effective_at))::int8 AS b
            FROM billing_transaction WHERE provider = $1::billing_provider
            """, [provider.databaseLabel]).first)
        guard var period = ReconciliationPeriod.containing(provider, seconds: try bounds.decode(Int64.self, "a")) else { return [] }
        let last = try bounds.decode(Int64.self, "b")
        var result = [period]
        while period.end <= last, let next = period.next { result.append(next); period = next }
        return result
    }

    /// The current run's items of every period of `provider` (reconciled first).
    func reconcileAll(_ provider: ReconciliationPeriod.Provider) throws -> [(String, ReconciliationItem)] {
        var result: [(String, ReconciliationItem)] = []
        for period in try periods(provider) {
            // Apple's stored label is the fiscal reportDate: asked for by --fiscal-period (--period is a calendar month).
            let asked = period.fiscalPeriod.map { ["--fiscal-period", ReconciliationPeriod.fiscalArgument($0)] }
                ?? ["--provider", provider.rawValue, "--period", period.label]
            let (code, _, line) = try run(Reconcile.definition(), asked + ["--out", out.path])
            // A period the world wrote no report file for is refused (exit 3, nothing staged): it has no items.
            if code == .thresholdBreached, line.contains("nothing staged") { continue }
            #expect(code == .succeeded, "\(line)")
            result += try items(provider, period.label).map { (period.label, $0) }
        }
        return result
    }

    /// The items of the current run of a period, from the database.
    func items(_ provider: ReconciliationPeriod.Provider, _ period: String) throws -> [ReconciliationItem] {
        try database.query("""
            SELECT i.* FROM reconciliation_item i JOIN reconciliation_run r ON r.id = i.run_id
            WHERE r.provider = $1 AND r.period = $2 AND r.superseded_by IS NULL ORDER BY i.line
            """, [provider.rawValue, period]).rows.map { row in
            var item = ReconciliationItem(
                category: ReconciliationCategory(rawValue: try row.decode(String.self, "category")) ?? .matched,
                grainKey: try row.decode(String.self, "grain_key"), side: try row.decode(String.self, "side"),
                productId: try row.decode(String.self, "product_id"), country: try row.decode(String.self, "country"),
                currency: try row.decode(String.self, "currency"), databaseCurrency: try row.decodeIfPresent(String.self, "database_currency"),
                reportUnits: try row.decode(Int64.self, "report_units"), databaseUnits: try row.decode(Int64.self, "database_units"),
                reportGross: try row.decode(Int64.self, "report_gross_micros"),
                databaseGross: try row.decode(Int64.self, "database_gross_micros"),
                storeFee: try row.decode(Int64.self, "store_fee_micros"), tax: try row.decode(Int64.self, "tax_micros"),
                detail: try row.decode(String.self, "detail"))
            item.priorPeriodAdjustment = try row.decode(Bool.self, "prior_period_adjustment")
            item.adjustmentPeriod = try row.decodeIfPresent(String.self, "adjustment_period")
            return item
        }
    }

    /// One number from SQL.
    func scalar(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> Int64 {
        try #require(try database.query(sql, parameters).first).decode(Int64.self, "n")
    }
}

/// Collects a job's stdout summary line.
final class SummaryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return lines.last ?? "" }
}
