import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing
import WorldGen

/// A migrated private database holding a small generated world, scratch folders, and a way to run `build-reports`.
final class ReportingHarness {
    let databaseName: String
    let database: PostgresConnection
    let scratch: URL
    let options: WorldOptions

    /// The repository's Reports/ folder (the report SQL as it ships).
    static let reportsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Reports")

    /// A world of `subscriptions` over `months` at `seed`, loaded with COPY into database `reporting_<name>`.
    init(_ name: String, seed: UInt64 = 15, subscriptions: Int = 300, months: Int = 6) throws {
        databaseName = "reporting_" + name
        (_, database) = try TestDatabase.migrated(databaseName)
        options = WorldOptions(seed: seed, subscriptions: subscriptions, months: months, testShare: 0.03)
        try WorldWriter.load(try World.generate(options), into: database)
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reporting-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The world's as-of instant as the job takes it.
    var asOf: String { PostgresTimestamp.iso8601(options.asOf) }

    /// Installs `function` as migration `migration` (a file of SQL/migrations) defined it, its `CREATE OR REPLACE
    /// FUNCTION` text up to `$fn$;`, as the temporary function `pg_temp.<alias>`: a definition to compare the
    /// installed one with.
    func installEarlier(_ function: String, from migration: String, as alias: String) throws {
        let file = Self.reportsFolder.deletingLastPathComponent().appendingPathComponent("SQL/migrations/" + migration)
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "CREATE OR REPLACE FUNCTION \(function)("))
        let end = try #require(text.range(of: "$fn$;", range: start.upperBound..<text.endIndex))
        try database.execute(text[start.lowerBound..<end.upperBound]
            .replacingOccurrences(of: "FUNCTION \(function)(", with: "FUNCTION pg_temp.\(alias)("))
    }

    /// A folder under the scratch folder (not created).
    func folder(_ name: String) -> URL { scratch.appendingPathComponent(name) }

    /// Every report file the job needs: the catalogue's and the FX pre-check.
    static let shippedReports = ReportCatalogue.standard.map(\.name) + [ReportCatalogue.fxMissing]

    /// A folder of report SQL: copies of the named repository reports plus `extra` (file name → SQL).
    func sqlFolder(_ name: String, copying reports: [String] = ReportingHarness.shippedReports, extra: [String: String] = [:]) throws -> URL {
        let folder = folder(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for report in reports {
            try FileManager.default.copyItem(at: Self.reportsFolder.appendingPathComponent(report + ".sql"),
                                             to: folder.appendingPathComponent(report + ".sql"))
        }
        for (file, sql) in extra { try sql.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        return folder
    }

    /// Runs the job (`--as-of` the world's, JSON logs) with `catalogue`: exit code and the summary line's JSON.
    func run(_ arguments: [String], catalogue: [ReportDefinition] = ReportCatalogue.standard) throws -> (JobExitCode, [String: Any]) {
        var variables = ProcessInfo.processInfo.environment
        variables["PGDATABASE"] = databaseName
        let box = SummaryBox()
        let code = JobRunner.run(BuildReports.definition(catalogue: catalogue), arguments: ["--log-format", "json", "--as-of", asOf] + arguments,
                                 environment: JobEnvironment(variables), output: { box.append($0) })
        let json = (try? JSONSerialization.jsonObject(with: Data(box.text.utf8)) as? [String: Any]) ?? [:]
        return (code, json)
    }

    /// The files of `folder`, name → bytes (hidden ones included).
    static func files(_ folder: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            result[name] = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return result
    }
}

/// Collects the job's stdout summary line.
final class SummaryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return lines.last ?? "" }
}
