import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// The built `drift-counts` executable, configured like cron would: the .prom file lands in the textfile folder
/// (and parses), the JSON file is written, a breached threshold exits 3 naming the series, a bad rule exits 2.
@Suite(.serialized) struct DriftCountsProcessTests {
    static let databaseName = "test_monitoring_process"
    static let prepared: Result<Void, any Error> = Result {
        let (_, db) = try TestDatabase.migrated(databaseName)
        defer { db.close() }
        let fixture = try MonitoringFixture(db)
        try fixture.subscription("APPLE", "REVOKED", entitled: true)
        try fixture.subscription("GOOGLE", "ACTIVE", entitled: true)
    }

    private let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("drift-counts")

    private func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, summary: String) {
        try Self.prepared.get()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--log-format", "json", "--as-of", "2026-11-29T06:00:00Z"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["PGDATABASE"] = Self.databaseName
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drift-counts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aBreachExitsThreeNamingTheSeriesAndStillWritesTheFiles() throws {
        #expect(FileManager.default.isExecutableFile(atPath: executable.path), "build drift-counts first (swift build --build-tests)")
        let dir = try folder()
        let thresholds = dir.appendingPathComponent("thresholds.conf")
        try """
            # leaked entitlements page on-call
            iap_entitlement_leaked_subscriptions > 0
            iap_entitlement_missing_subscriptions > 0
            """.write(to: thresholds, atomically: true, encoding: .utf8)
        let json = dir.appendingPathComponent("metrics.json")
        let result = try run(["--textfile-dir", dir.path, "--thresholds", thresholds.path, "--json", json.path])
        #expect(result.status == 3)
        #expect(result.summary.contains("iap_entitlement_leaked_subscriptions{provider=\\\"apple\\\",status=\\\"REVOKED\\\"} = 1"))
        #expect(!result.summary.contains("iap_entitlement_missing_subscriptions{"), "the missing-entitlement series are 0")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.summary.utf8)) as? [String: Any])
        #expect(summary["status"] as? String == "threshold_breached")
        #expect((summary["counts"] as? [String: Any])?["breaches"] as? Int == 1)
        let prom = try String(contentsOf: dir.appendingPathComponent("iap_drift_counts.prom"), encoding: .utf8)
        let parsed = try PrometheusExposition(prom)
        #expect(parsed.conventionViolations() == [])
        #expect(parsed.value("iap_entitlement_leaked_subscriptions", ["provider": "apple", "status": "REVOKED"]) == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary file was renamed, not left behind")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect((document["breaches"] as? [String])?.count == 1)
        #expect((document["metrics"] as? [[String: Any]])?.count == parsed.order.count)
    }

    @Test func withinThresholdsExitsZeroAndTheEnvironmentNamesTheFolder() throws {
        let dir = try folder()
        let thresholds = dir.appendingPathComponent("thresholds.conf")
        try "iap_entitlement_leaked_subscriptions > 5\n".write(to: thresholds, atomically: true, encoding: .utf8)
        let result = try run([], environment: ["DRIFT_TEXTFILE_DIR": dir.path, "DRIFT_THRESHOLDS_FILE": thresholds.path])
        #expect(result.status == 0, "\(result.summary)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("iap_drift_counts.prom").path))
    }

    @Test func aRuleNamingAnUnknownMetricIsAConfigurationError() throws {
        let dir = try folder()
        let thresholds = dir.appendingPathComponent("thresholds.conf")
        try "iap_entitlement_leaks > 0\n".write(to: thresholds, atomically: true, encoding: .utf8)
        let result = try run(["--thresholds", thresholds.path])
        #expect(result.status == 2)
        #expect(result.summary.contains("iap_entitlement_leaks"))
    }
}
