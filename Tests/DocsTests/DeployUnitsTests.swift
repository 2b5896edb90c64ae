import Foundation
import Testing

/// The scheduling examples under deploy/: the systemd units pass `systemd-analyze verify` as written and installed
/// (their /opt/iap paths moved under a temporary root holding a stub of every job), a broken copy does not; every
/// service runs a real job in /var/lib/iap with the environment file, every timer names its service and has a
/// randomised delay, and every cron line has five schedule fields and a command and sends its output to syslog.
@Suite struct DeployUnitsTests {
    static let deploy = RepositoryDocsTests.root.appendingPathComponent("deploy")
    static let analyzer = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func units() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: deploy.appendingPathComponent("systemd"), includingPropertiesForKeys: nil)
            .filter { ["service", "timer"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
    }

    /// Runs `systemd-analyze verify` on `files`; returns its exit status and output.
    static func verify(_ files: [URL]) throws -> (Int32, String) {
        try ToolProcess.run(analyzer ?? "/usr/bin/systemd-analyze", ["verify", "--man=no"] + files.map(\.path))
    }

    /// The jobs of the repository (`Jobs/<name>/`): what `make install` puts under /opt/iap/bin.
    static func jobs() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: RepositoryDocsTests.root.appendingPathComponent("Jobs").path))
    }

    /// The job a unit or cron line runs: the word after `/opt/iap/bin/`.
    static func job(in text: String) -> String? {
        guard let range = text.range(of: "/opt/iap/bin/") else { return nil }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0 == "-" })
    }

    /// The units with `/opt/iap/` moved under `root`, and a stub executable for every job `make install` installs
    /// there, as on an installed machine: `systemd-analyze verify` then checks every path the units name.
    static func unitsInstalled(under root: URL) throws -> [URL] {
        let bin = root.appendingPathComponent("opt/iap/bin")
        let folder = root.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for job in try jobs() {
            let stub = bin.appendingPathComponent(job)
            try "#!/bin/sh\nexit 0\n".write(to: stub, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
        }
        return try units().map { unit in
            let copy = folder.appendingPathComponent(unit.lastPathComponent)
            try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "/opt/iap/", with: root.path + "/opt/iap/")
                .write(to: copy, atomically: true, encoding: .utf8)
            return copy
        }
    }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyAcceptsTheUnitsAndRejectsABrokenOne() throws {
        let units = try Self.units()
        #expect(units.count == 18)
        let (status, output) = try Self.verify(units)
        #expect(status == 0, "\(output)")
        #expect(output.isEmpty, "no warnings: \(output)")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("units-root-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let installed = try Self.unitsInstalled(under: root)
        let (installedStatus, installedOutput) = try Self.verify(installed)
        #expect(installedStatus == 0, "\(installedOutput)")
        #expect(installedOutput.isEmpty, "no warnings: \(installedOutput)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        let timer = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/iap-nightly.timer"), encoding: .utf8)
        try timer.replacingOccurrences(of: "OnCalendar=*-*-* 02:30:00 UTC", with: "OnCalendar=someday")
            .write(to: broken.appendingPathComponent("iap-nightly.timer"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: Self.deploy.appendingPathComponent("systemd/iap-nightly.service"),
                                         to: broken.appendingPathComponent("iap-nightly.service"))
        #expect(try Self.verify([broken.appendingPathComponent("iap-nightly.timer")]).0 != 0)
        // A unit whose program is not installed fails: verify checks the paths (here the job run without flock).
        let missing = broken.appendingPathComponent("iap-missing.service")
        try "[Service]\nType=oneshot\nExecStart=\(root.path)/opt/iap/bin/no-such-job\n".write(to: missing, atomically: true, encoding: .utf8)
        #expect(try Self.verify([missing]).0 != 0)
    }

    @Test func everyServiceRunsAnInstalledJobInTheStateDirectoryWithTheEnvironmentFile() throws {
        let jobs = try Self.jobs()
        for service in try Self.units() where service.pathExtension == "service" {
            let text = try String(contentsOf: service, encoding: .utf8)
            let name = service.lastPathComponent
            let job = try #require(Self.job(in: text), "\(name) runs no /opt/iap/bin job")
            #expect(jobs.contains(job), "\(name) runs \(job), which is not a job under Jobs/")
            #expect(name == "iap-\(job).service")
            #expect(text.contains("\nWorkingDirectory=/var/lib/iap\n"), "\(name)")
            #expect(text.contains("\nStateDirectory=iap\n"), "\(name)")
            #expect(text.contains("\nEnvironmentFile=/etc/iap/pipeline.env\n"), "\(name)")
            // drift-counts writes the node_exporter textfile, also as the nightly chain's last step.
            let writesTextfile = ["drift-counts", "nightly"].contains(job)
            #expect(text.contains("ReadWritePaths=-/var/lib/prometheus/node-exporter") == writesTextfile, "\(name)")
        }
    }

    @Test func everyTimerHasItsServiceARandomDelayAndEveryServiceTheChainLock() throws {
        let units = try Self.units()
        for timer in units where timer.pathExtension == "timer" {
            let text = try String(contentsOf: timer, encoding: .utf8)
            let service = timer.deletingPathExtension().lastPathComponent + ".service"
            #expect(text.contains("Unit=\(service)"), "\(timer.lastPathComponent)")
            #expect(units.contains { $0.lastPathComponent == service })
            #expect(text.contains("RandomizedDelaySec="), "\(timer.lastPathComponent)")
            #expect(text.contains("Persistent=true"))
        }
        for service in units where service.pathExtension == "service" {
            let text = try String(contentsOf: service, encoding: .utf8)
            #expect(text.contains("ExecStart=/usr/bin/flock "), "\(service.lastPathComponent)")
            #expect(text.contains("EnvironmentFile=/etc/iap/pipeline.env"))
            #expect(text.contains("User=iap"))
            #expect(text.contains("UMask=0077"))
        }
    }

    /// The schedule lines of a crontab: not blank, not a comment, not a `NAME=value` setting.
    static func cronLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            guard !line.isEmpty, !line.hasPrefix("#") else { return false }
            let head = line.split(separator: " ").first ?? ""
            return !(head.contains("=") && head.first?.isLetter == true)
        }
    }

    /// The problems of one crontab schedule line (empty when it parses): five fields in range, then a command.
    static func cronProblems(_ line: String) -> [String] {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count >= 6 else { return ["\(line): fewer than five schedule fields and a command"] }
        let ranges = [0...59, 0...23, 1...31, 1...12, 0...7]
        var problems: [String] = []
        for (field, range) in zip(fields.prefix(5), ranges) {
            for part in field.split(separator: ",") {
                let body = part.split(separator: "/", maxSplits: 1)
                if body.count == 2, Int(body[1]).map({ $0 > 0 }) != true { problems.append("\(line): bad step '\(part)'") }
                if body.first == "*" { continue }
                let bounds = (body.first ?? "").split(separator: "-", maxSplits: 1).map { Int($0) }
                if bounds.isEmpty || bounds.contains(where: { $0.map { !range.contains($0) } ?? true }) {
                    problems.append("\(line): field '\(field)' outside \(range)")
                }
            }
        }
        if !fields[5].hasPrefix("/") { problems.append("\(line): the command should be an absolute path") }
        return problems
    }

    @Test func everyCronLineHasFiveScheduleFieldsAndACommandAndLogsToSyslog() throws {
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("cron.example"), encoding: .utf8)
        let lines = Self.cronLines(text)
        #expect(lines.count == 9)
        #expect(lines.flatMap(Self.cronProblems) == [])
        var jobs: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            let job = try #require(words.firstIndex { $0.hasPrefix("--") && ["--chain", "--wait", "--skip-if-busy"].contains($0) }
                .map { words[$0 + 1] }, "\(line)")
            jobs.insert(job)
            #expect(line.contains("/opt/iap/bin/iap-job.sh "), "\(line)")
            #expect(line.hasSuffix(" 2>&1 | logger -t iap-\(job)"), "every job's output goes to syslog under its own tag: \(line)")
        }
        #expect(jobs == ["nightly", "replay-events", "ack-rescue", "drift-counts", "import-exports", "reconcile", "close-period", "retention",
                         "check-notifications"])
        #expect(!text.contains("/dev/null"))
        #expect(!text.contains("MAILTO=\"\""), "output is not thrown away")
        let script = Self.deploy.appendingPathComponent("iap-job.sh")
        #expect(FileManager.default.isExecutableFile(atPath: script.path))
    }

    @Test func theCronCheckRejectsBrokenLines() {
        #expect(!Self.cronProblems("30 2 * * /opt/x").isEmpty)
        #expect(!Self.cronProblems("61 2 * * * /opt/x").isEmpty)
        #expect(!Self.cronProblems("0 5 1-40 * * /opt/x").isEmpty)
        #expect(!Self.cronProblems("*/0 * * * * /opt/x").isEmpty)
        #expect(Self.cronProblems("*/15 1-3 1,15 * 0 /opt/x --flag").isEmpty)
    }
}
