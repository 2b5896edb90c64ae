import Foundation
import Testing

/// The RUNBOOK's Install section names only what the repository and `make install` provide: every `deploy/…` file
/// it copies exists, every `/opt/iap/bin/<job>` it runs is a job of Jobs/, every `/opt/iap/share/iap-pipeline/…` file
/// is one `make install-files` installs, every unit it enables or starts is in deploy/systemd, and it uses no `sudo`
/// (the section runs as root; a minimal Debian has no sudo). Tests/Harness/runbook-trial.sh runs the section for real.
@Suite struct RunbookInstallTests {
    static let root = RepositoryDocsTests.root

    /// The shell lines of the Install section's fenced blocks.
    static func installCommands() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/RUNBOOK.md"), encoding: .utf8)
        let start = try #require(text.range(of: "\n## Install\n"))
        let section = text[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        var lines: [String] = []
        var inside = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inside.toggle(); continue }
            if inside { lines.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        return lines
    }

    /// Each match of `pattern`'s first group in the commands.
    static func matches(_ pattern: String, in commands: [String]) throws -> [String] {
        let regex = try Regex(pattern)
        return commands.flatMap { line in line.matches(of: regex).compactMap { $0.output[1].substring.map(String.init) } }
    }

    @Test func everyNamedFileJobAndUnitExists() throws {
        let commands = try Self.installCommands()
        #expect(commands.count >= 30, "the Install section's blocks were read (\(commands.count) lines)")
        let manager = FileManager.default
        let deployFiles = try Self.matches(#"(?:^|\s)(deploy/[A-Za-z0-9_./*-]+)"#, in: commands)
        #expect(!deployFiles.isEmpty)
        for path in deployFiles where !path.contains("*") {
            #expect(manager.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path) is not in the repository")
        }
        let jobs = Set(try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Jobs").path))
        for job in try Self.matches(#"/opt/iap/bin/([a-z-]+)(?:\s|$)"#, in: commands) where job != "iap-job.sh" {
            #expect(jobs.contains(job), "/opt/iap/bin/\(job) is not a job of Jobs/")
        }
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        for file in try Self.matches(#"/opt/iap/share/iap-pipeline/([A-Za-z0-9_./-]+)"#, in: commands) {
            let name = URL(fileURLWithPath: file).lastPathComponent
            #expect(makefile.contains(name), "make install-files does not install \(file)")
        }
        let units = Set(try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent("deploy/systemd").path))
        for unit in try Self.matches(#"(iap-[a-z-]+\.(?:timer|service))"#, in: commands) {
            #expect(units.contains(unit), "\(unit) is not in deploy/systemd")
        }
        #expect(!commands.contains { $0.hasPrefix("sudo ") || $0.contains(" sudo ") }, "the section runs as root: no sudo")
    }
}
