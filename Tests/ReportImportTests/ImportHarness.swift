import Foundation
import JobKit
import Postgres
import ReportImport
import TestSupport
import Testing

/// A migrated private database, a scratch folder of report files and a way to run `import-exports` on them.
final class ImportHarness {
    let databaseName: String
    let configuration: PostgresConfiguration
    let database: PostgresConnection
    let folder: URL

    init(_ name: String) throws {
        databaseName = "report_import_" + name
        (configuration, database) = try TestDatabase.migrated(databaseName)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-import-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: folder)
    }

    static func fixtures() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    }

    /// Copies `Fixtures/<path>` into the scratch folder (as `name`, default its own name).
    func add(_ path: String, as name: String? = nil) throws {
        let source = try Self.fixtures().appendingPathComponent(path)
        let target = folder.appendingPathComponent(name ?? source.lastPathComponent)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: source, to: target)
    }

    /// Copies every good fixture into the scratch folder.
    func addGood() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: try Self.fixtures().appendingPathComponent("good").path) {
            try add("good/" + name)
        }
    }

    /// Runs the job with `arguments` (plus `--reports-dir <folder>` unless `folder` is false): exit code, summary counts.
    func run(_ arguments: [String] = [], folder useFolder: Bool = true,
             definition: JobDefinition = ImportExports.definition()) throws -> (JobExitCode, [String: Int], String) {
        var variables = ProcessInfo.processInfo.environment
        variables["PGDATABASE"] = databaseName
        variables["REPORTS_DIR"] = nil
        let box = OutputBox()
        let all = ["--log-format", "json"] + (useFolder ? ["--reports-dir", folder.path] : []) + arguments
        let code = JobRunner.run(definition, arguments: all, environment: JobEnvironment(variables),
                                 output: { box.append($0) })
        let line = box.text
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let counts = (json["counts"] as? [String: Int]) ?? [:]
        return (code, counts, line)
    }

    /// Runs the `show-order` job for `order` on this database; the exit code and the CSV lines it printed (its
    /// summary goes to standard error: it is a query tool).
    func showOrder(_ order: String) -> (JobExitCode, [String]) {
        var variables = ProcessInfo.processInfo.environment
        variables["PGDATABASE"] = databaseName
        let box = Lines()
        let code = JobRunner.run(ShowOrder.definition(output: { box.append($0) }), arguments: ["--log-format", "json", order],
                                 environment: JobEnvironment(variables), output: { _ in })
        return (code, box.lines)
    }

    /// One number from SQL.
    func scalar(_ sql: String) throws -> Int64 {
        try #require(try database.query(sql).first).decode(Int64.self, "n")
    }

    /// An MD5 over every staging table, report_file and fx_rate, ordered: equal digests mean equal contents.
    func digest() throws -> String {
        var parts: [String] = []
        for table in ["report_file", "apple_financial_row", "apple_payments_row", "apple_subscriber_row", "apple_sales_summary_row",
                      "apple_subscription_row", "apple_subscription_event_row", "google_earnings_fact", "report_file_content", "google_estimated_sales_row",
                      "fx_rate", "audit_log"] {
            let row = try #require(try database.query(
                "SELECT coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS d FROM \(table) t").first)
            parts.append(table + ":" + (try row.decode(String.self, "d")))
        }
        return parts.joined(separator: ",")
    }
}

/// Collects the job's stdout summary line.
final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return lines.last ?? "" }
}
