import Foundation
import TestSupport
import Testing

/// The .prom file as node_exporter meets it: drift-counts run with the units' `UMask=0077` still writes it mode
/// 0644, another user (nobody) can read it, `promtool check metrics` accepts it, and no temporary file is left; the
/// thresholds file shipped in deploy/prometheus names only metrics drift-counts writes.
/// (An extension of DriftCountsProcessTests: one serialized suite, as two drift-counts runs at once exit 4 on the job lock.)
extension DriftCountsProcessTests {
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let driftCounts = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("drift-counts")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `command` (argv) through /bin/sh with `umask 077` first, as the systemd units do.
    private func runWithStrictUmask(_ command: [String], stdin: URL? = nil) throws -> (status: Int32, output: String) {
        try DriftCountsProcessTests.prepared.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 077; exec \"$@\"", "sh"] + command
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["PGDATABASE"] = DriftCountsProcessTests.databaseName
        environment["DRIFT_TEXTFILE_DIR"] = nil
        environment["DRIFT_THRESHOLDS_FILE"] = nil
        process.environment = environment
        if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func textfileFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drift-textfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return url
    }

    @Test func theTextfileIsMode0644UnderUmask0077AndAnotherUserReadsIt() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.driftCounts.path), "build drift-counts first (swift build --build-tests)")
        let dir = try textfileFolder()
        let run = try runWithStrictUmask([Self.driftCounts.path, "--log-format", "json", "--as-of", "2026-11-29T06:00:00Z", "--textfile-dir", dir.path])
        #expect(run.status == 0, "\(run.output)")
        let prom = dir.appendingPathComponent("iap_drift_counts.prom")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: prom.path)[.posixPermissions] as? Int)
        #expect(mode == 0o644, "mode \(String(mode, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["iap_drift_counts.prom"], "no temporary file left")
        let content = try String(contentsOf: prom, encoding: .utf8)
        #expect(content.contains("iap_entitlement_leaked_subscriptions{provider=\"apple\",status=\"REVOKED\"} 1"))
        // Another user, as node_exporter runs (Debian: prometheus), reads it.
        if getuid() == 0 {
            let other = try runWithStrictUmask(["su", "nobody", "-s", "/bin/sh", "-c", "cat \"$0\"", prom.path])
            #expect(other.status == 0, "\(other.output)")
            #expect(other.output == content)
        }
        // A rewrite replaces the file atomically and keeps the mode.
        let again = try runWithStrictUmask([Self.driftCounts.path, "--log-format", "json", "--as-of", "2026-11-29T07:00:00Z", "--textfile-dir", dir.path])
        #expect(again.status == 0, "\(again.output)")
        #expect(try FileManager.default.attributesOfItem(atPath: prom.path)[.posixPermissions] as? Int == 0o644)
    }

    @Test(.enabled(if: promtool != nil, "promtool is not installed (Debian package prometheus: make deps)"))
    func promtoolAcceptsARealDriftCountsOutput() throws {
        let dir = try textfileFolder()
        let run = try runWithStrictUmask([Self.driftCounts.path, "--log-format", "json", "--as-of", "2026-11-29T06:00:00Z", "--textfile-dir", dir.path])
        #expect(run.status == 0, "\(run.output)")
        let prom = dir.appendingPathComponent("iap_drift_counts.prom")
        let check = try runWithStrictUmask([Self.promtool ?? "promtool", "check", "metrics"], stdin: prom)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.isEmpty, "no lint findings: \(check.output)")
    }

    @Test func theShippedThresholdsFileNamesOnlyMetricsDriftCountsWrites() throws {
        let thresholds = Self.root.appendingPathComponent("deploy/prometheus/iap-thresholds.conf")
        let run = try runWithStrictUmask([Self.driftCounts.path, "--log-format", "json", "--as-of", "2026-11-29T06:00:00Z", "--thresholds", thresholds.path])
        // The fixture holds a leaked entitlement: the shipped rules see it (exit 3), and none is unknown (exit 2).
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains("iap_entitlement_leaked_subscriptions"))
    }
}
